// A holder's rights under Ley 1581 de 2012 from the customers screen (docs/privacy.md): an admin
// opens the customer's personal data (a printable page; the export is audited), then suppresses
// the customer, whose history stays anonymous and whose points are forfeited.

import { expect, test, uniqueTag } from '../../support/fixtures';
import type { Locale } from '../../support/i18n';
import { CustomersScreen } from '../../support/pages/settings';

/** The server's answer to the suppression of a customer with history, as the toast shows it. */
const ANONYMISED: Record<Locale, string> = {
  es: 'Los datos personales del cliente se anonimizaron',
  en: "the customer's personal data was anonymised",
};

for (const locale of ['es', 'en'] as const satisfies readonly Locale[]) {
  test(`${locale}: an admin exports a customer's data and then suppresses the customer`, async ({ newCompanyAdmin }) => {
    const { company, page } = await newCompanyAdmin({ locale });
    await company.api.saveSettings({ pointsPerPeso: 0.01, redemptionRate: 1 });
    const name = `Valentina ${uniqueTag()}`;
    const document = String(52_000_000 + Math.floor(Math.random() * 900_000));
    const customer = await company.api.createCustomer({ name, document, email: 'valentina@example.com', phone: '3157778899' });
    await company.api.accredit(customer.id, 30_000);

    const screen = new CustomersScreen(page, locale);
    await screen.goto();
    await screen.exportData(name);
    await expect(page).toHaveURL((url) => url.pathname === `/settings/customers/${customer.id}/datos`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(screen.t('customers.data.title'));
    const personal = page.getByRole('region', { name: screen.t('customers.data.personalTitle') });
    await expect(personal).toContainText(name);
    await expect(personal).toContainText('valentina@example.com');
    const ledger = page.getByRole('region', { name: screen.t('customers.data.ledgerTitle') });
    await expect(ledger).toContainText(screen.t('reports.types.accreditation'));
    await expect(page.getByRole('button', { name: screen.t('customers.data.print') })).toBeEnabled();
    const exports = await company.api.call<{ items: { entityId: number; actor: string }[] }>(
      'GET',
      '/api/audit?action=customer.data_export',
    );
    expect(exports.items.map((e) => e.entityId)).toEqual([customer.id]);

    await page.getByRole('link', { name: screen.t('customers.data.back') }).click();
    const dialog = await screen.askToSuppress(name);
    await expect(dialog).toContainText(screen.t('customers.suppress.text', { name }));
    await dialog.getByRole('button', { name: screen.t('customers.suppress.confirm') }).click();
    await expect(screen.toast(ANONYMISED[locale])).toBeVisible();
    await expect(screen.list.root.getByText(name)).toHaveCount(0);

    // The history stays, anonymous; the 300 points left with a forfeit; the document is free.
    const forfeits = await company.api.searchTransactions({ type: 'forfeit' });
    expect(forfeits.items.map((tx) => [tx.customerId, tx.points, tx.customerName])).toEqual([
      [customer.id, -300, `anon-${customer.id}`],
    ]);
    const again = await company.api.createCustomer({ name, document });
    expect(again.id).not.toBe(customer.id);
  });
}
