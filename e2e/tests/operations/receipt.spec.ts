// The redemption receipt on screen: with the company's logo and on a reprint it stays on its
// paper (the thank-you line inside it), and a reprint shows the exact balances kept with the
// redemption. In both languages.

import { expect, inEachLanguage, test } from '../../support/fixtures';
import { ReceiptDialog, ReportsPage } from '../../support/pages/operations';
import { missing } from '../../support/run';
import { newCustomer, seedShop } from '../../support/seed';

test.skip(({ run }) => !run.capabilities.points || !run.capabilities.reports, `${missing('points')}; ${missing('reports')}`);

inEachLanguage(({ locale, tr, number }) => {
  test('a reprint with the logo stays on its paper and shows the exact balances', async ({ newCompany, apiAs, pageWithSession }) => {
    const company = await newCompany({ logoUrl: '/favicon.svg' });
    const shop = await seedShop(company);
    const carlos = await apiAs(shop.cajero);
    const customer = await newCustomer(company.api, { name: 'Ana Beltrán', points: 3000, earnedBy: carlos });
    const [coffee] = shop.products;
    const redemption = (await carlos.redeem(customer.id, { pointsToRedeem: coffee!.pointsValue, productId: coffee!.id })).newTransaction;
    const page = await pageWithSession(company.api.session!, { locale });
    // A laptop screen: the receipt is taller than its frame, which scrolls.
    await page.setViewportSize({ width: 1280, height: 640 });
    const reports = new ReportsPage(page, locale);
    await reports.goto();
    await reports.reprintButton(redemption.id).click();

    const receipt = new ReceiptDialog(page, locale);
    const logo = receipt.receipt.getByRole('img', { name: company.name });
    await expect(logo).toBeVisible();
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(await receipt.lines()).toMatchObject({
      [tr('receipt.previousBalance')]: number(3000),
      [tr('receipt.newBalance')]: number(3000 - coffee!.pointsValue),
    });
    await expect(receipt.receipt).not.toContainText(tr('receipt.reprintNote'));

    const thanks = receipt.receipt.getByText(tr('receipt.thanks'));
    await thanks.scrollIntoViewIfNeeded();
    await expect(thanks).toBeVisible();
    const paper = (await receipt.receipt.boundingBox())!;
    const line = (await thanks.boundingBox())!;
    expect(line.y + line.height).toBeLessThanOrEqual(paper.y + paper.height + 0.5);
  });
});
