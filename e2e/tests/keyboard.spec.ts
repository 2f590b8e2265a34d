// Everything a cashier does at the till works from the keyboard alone (WCAG 2.1.1), with the
// focus visible at every control it stops on (WCAG 2.4.7): the cajero goes from the dashboard to
// accredit an invoice, then to redeem a product, prints the receipt and closes it, pressing only
// Tab, Shift+Tab, Enter, Space, the arrows and Escape. No click, no fill.

import { expect, test } from '../support/fixtures';
import { t } from '../support/i18n';
import { KeyboardUser } from '../support/pages/keyboard';
import { AccreditPanel, ReceiptDialog, RedeemPanel } from '../support/pages/operations';
import { AppShell } from '../support/pages/shell';
import { missing } from '../support/run';
import { esNumber, newCustomer, seedShop } from '../support/seed';

test.skip(({ run }) => !run.capabilities.points, missing('points'));

test('a cajero accredits, redeems and prints a receipt with the keyboard alone', async ({ newCompany, apiAs, pageWithSession }) => {
  test.setTimeout(120_000);
  const company = await newCompany();
  const shop = await seedShop(company);
  const customer = await newCustomer(company.api, { name: 'Daniela Ortiz' });
  const cajero = await apiAs(shop.cajero);
  const page = await pageWithSession(cajero.session!);
  await page.addInitScript(() => {
    (window as unknown as { printed: number }).printed = 0;
    window.print = () => {
      (window as unknown as { printed: number }).printed += 1;
    };
  });
  const shell = new AppShell(page);
  const keyboard = new KeyboardUser(page);
  await page.goto('/main');
  await shell.expectAt('/main');

  await test.step('accredit an invoice', async () => {
    await keyboard.press(shell.navLink(t('nav.accredit')), 'Enter');
    await shell.expectAt('/accreditar');
    const accredit = new AccreditPanel(page.getByRole('main'));
    await keyboard.type(accredit.lookup.document(), customer.document);
    await page.keyboard.press('Enter');
    await expect(accredit.lookup.balance()).toHaveText('0');
    await keyboard.type(accredit.amount(), '125000');
    await expect(accredit.amount()).toHaveValue('125.000');
    await keyboard.type(accredit.reference(), 'FV-7001');
    await keyboard.press(accredit.submit(), 'Space');
    await expect(accredit.success()).toHaveText(t('accredit.success', { points: esNumber(1250), name: 'Daniela Ortiz', balance: esNumber(1250) }));
    expect((await company.api.customerByDocument(customer.document)).points).toBe(1250);
  });

  const redeem = new RedeemPanel(page.getByRole('main'));
  await test.step('redeem a product, chosen by category with the arrows', async () => {
    await keyboard.press(shell.navLink(t('nav.redeem')), 'Enter', { backwards: true });
    await shell.expectAt('/redimir');
    await keyboard.type(redeem.lookup.document(), customer.document);
    await page.keyboard.press('Enter');
    await expect(redeem.lookup.balance()).toHaveText(esNumber(1250));
    await keyboard.tabTo(redeem.category());
    await page.keyboard.press('ArrowDown');
    await expect(redeem.category()).toHaveValue(String(shop.categories[0]!.id));
    await expect(redeem.productOptions()).toHaveCount(1);
    await keyboard.press(redeem.product('Café de Origen'), 'Space');
    await expect(redeem.product('Café de Origen')).toHaveAttribute('aria-pressed', 'true');
    await expect(redeem.points()).toHaveValue('500');
    await keyboard.type(redeem.reference(), 'FV-7002');
    await keyboard.press(redeem.submit(), 'Enter');
  });

  const receipt = new ReceiptDialog(page);
  await test.step('print the receipt and close it', async () => {
    await expect(receipt.receipt).toBeVisible();
    // The dialog takes the focus, and shows it.
    await keyboard.expectVisibleFocus();
    expect(await page.evaluate(() => document.activeElement?.closest('[aria-modal="true"]') !== null)).toBe(true);
    expect(await receipt.lines()).toMatchObject({
      [t('receipt.customer')]: 'Daniela Ortiz',
      [t('receipt.previousBalance')]: esNumber(1250),
      [t('receipt.redeemedPoints')]: '-500',
      [t('receipt.newBalance')]: '750',
    });
    await keyboard.press(receipt.print(), 'Enter');
    expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    await page.keyboard.press('Escape');
    await expect(receipt.root).toHaveCount(0);
    await expect(redeem.lookup.customerCard()).toHaveCount(0);
    expect((await company.api.customerByDocument(customer.document)).points).toBe(750);
  });

  await test.step('the balance the cashier looks up next is the new one', async () => {
    await keyboard.type(redeem.lookup.document(), customer.document, { backwards: true });
    await page.keyboard.press('Enter');
    await expect(redeem.lookup.balance()).toHaveText('750');
  });
});
