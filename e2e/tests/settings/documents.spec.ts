// ID documents are normalised alike everywhere: typed with thousands dots or in lower case in the
// add form, looked up at the till, searched in the report; only all-digit documents are shown
// grouped by thousands.

import { expect, test } from '../../support/fixtures';
import { translator, type Locale } from '../../support/i18n';
import { AccreditPanel, ReportsPage } from '../../support/pages/operations';
import { CustomersScreen } from '../../support/pages/settings';

const grouped = { es: '79.888.777', en: '79,888,777' } as const;

for (const locale of ['es', 'en'] as const satisfies readonly Locale[]) {
  test(`${locale}: a cédula typed with its grouping and a passport with letters are found at the till and in the report`, async ({ newCompanyAdmin }) => {
    const t = translator(locale);
    const { company, page } = await newCompanyAdmin({ locale });
    await company.api.saveSettings({ pointsPerPeso: 0.01, redemptionRate: 10 });
    const screen = new CustomersScreen(page, locale);
    await screen.goto();

    await screen.addField('customers.fields.name').fill('Carlos Pérez');
    await screen.addField('customers.fields.document').fill(grouped[locale]);
    await expect(screen.addField('customers.fields.document')).toHaveValue(grouped[locale]);
    await screen.consent().required().check();
    await screen.addButton().click();
    await expect(screen.toast(t('customers.successAdded'))).toBeVisible();
    await expect(screen.list.row('Carlos Pérez')).toContainText(t('customers.documentValue', { document: grouped[locale] }));

    await screen.addField('customers.fields.name').fill('Jean Dupont');
    await screen.addField('customers.fields.document').pressSequentially('pa-778 899');
    await expect(screen.addField('customers.fields.document')).toHaveValue('PA-778899');
    await screen.consent().required().check();
    await screen.addButton().click();
    await expect(screen.list.row('Jean Dupont')).toContainText(t('customers.documentValue', { document: 'PA-778899' }));

    const carlos = await company.api.customerByDocument('79888777');
    expect(carlos).toMatchObject({ name: 'Carlos Pérez', document: '79888777' });
    expect(await company.api.customerByDocument('PA-778899')).toMatchObject({ name: 'Jean Dupont' });

    await page.goto('/accreditar');
    const accredit = new AccreditPanel(page.getByRole('main'), locale);
    await accredit.lookup.find('PA-778899');
    await expect(accredit.lookup.customerCard()).toContainText('Jean Dupont');
    await expect(accredit.lookup.customerCard()).toContainText(t('dashboard.lookup.documentValue', { document: 'PA-778899' }));
    await accredit.lookup.changeCustomer().click();
    await accredit.lookup.find('79888777');
    await expect(accredit.lookup.document()).toHaveValue(grouped[locale]);
    await expect(accredit.lookup.customerCard()).toContainText('Carlos Pérez');

    await company.api.accredit(carlos.id, 100_000, `DOC-${locale}`);
    const reports = new ReportsPage(page, locale);
    await reports.goto();
    await reports.list.search().fill('79.888.777');
    await expect(reports.list.rows()).toHaveCount(1);
    await expect(reports.list.rows().first()).toContainText('Carlos Pérez');
  });
}
