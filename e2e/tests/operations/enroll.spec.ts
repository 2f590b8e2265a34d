// Enrolling at the till: when the lookup finds nobody, a user allowed to add customers adds them
// in place, with their authorization to the privacy notice in force, and goes on with the sale; a
// user who may not add customers is not offered it. In both languages.

import { expect, inEachLanguage, test } from '../../support/fixtures';
import { AccreditPanel } from '../../support/pages/operations';
import { ConsentBlock } from '../../support/pages/privacy';
import { missing } from '../../support/run';
import { seedShop, uniqueDocument } from '../../support/seed';

test.skip(({ run }) => !run.capabilities.points, missing('points'));

inEachLanguage(({ locale, tr }) => {
  test('a cashier allowed to add customers enrolls the one the lookup did not find and credits the sale', async ({ newCompany, apiAs, pageWithSession }) => {
    const company = await newCompany();
    const shop = await seedShop(company);
    await company.api.saveSettings({
      rolePermissions: { supervisor: ['/main', '/accreditar', '/redimir', '/reportes'], cajero: ['/accreditar', '/settings/customers'] },
    });
    const carlos = await apiAs(shop.cajero);
    const camila = await apiAs(shop.cajero2);
    const document = uniqueDocument();
    const page = await pageWithSession(carlos.session!, { locale });

    await page.goto('/accreditar');
    const accredit = new AccreditPanel(page.getByRole('main'), locale);
    await accredit.lookup.find(document);
    await expect(accredit.lookup.error()).toHaveText(tr('dashboard.errorCustomerNotFound'));
    await page.getByRole('button', { name: tr('enroll.open') }).click();
    const dialog = page.getByRole('dialog', { name: tr('enroll.title') });
    await expect(dialog.getByLabel(tr('customers.fields.document'))).toHaveValue(document);
    await dialog.getByLabel(tr('customers.fields.name')).fill('Valeria Nieto');

    // The notice in force is shown, and nobody is enrolled without the required purpose.
    const consent = new ConsentBlock(dialog, locale);
    await expect(consent.root(1)).toBeVisible();
    await dialog.getByRole('button', { name: tr('enroll.submit') }).click();
    await expect(dialog.getByRole('alert')).toHaveText(tr('privacy.consent.errorRequired'));
    await consent.required().check();
    await consent.purpose('Mercadeo').check();
    await dialog.getByRole('button', { name: tr('enroll.submit') }).click();
    await expect(dialog).toHaveCount(0);
    await expect(accredit.lookup.customerCard()).toContainText('Valeria Nieto');
    const enrolled = await company.api.customerByDocument(document);
    const consents = await company.api.customerConsents(enrolled.id);
    expect(consents.current.map(({ purpose, granted, noticeVersion, channel, recordedBy }) => ({ purpose, granted, noticeVersion, channel, recordedBy }))).toEqual([
      { purpose: 'loyalty', granted: true, noticeVersion: 1, channel: 'store', recordedBy: 'carlos' },
      { purpose: 'marketing', granted: true, noticeVersion: 1, channel: 'store', recordedBy: 'carlos' },
    ]);

    await accredit.amount().fill('30000');
    await accredit.submit().click();
    await expect(accredit.success()).toContainText('Valeria Nieto');
    expect((await company.api.customerByDocument(document)).points).toBe(300);

    // A cashier without the customers screen is not offered to add one.
    await company.api.saveSettings({
      rolePermissions: { supervisor: ['/main', '/accreditar', '/redimir', '/reportes'], cajero: ['/accreditar'] },
    });
    const other = await pageWithSession(camila.session!, { locale });
    await other.goto('/accreditar');
    const plain = new AccreditPanel(other.getByRole('main'), locale);
    await plain.lookup.find(uniqueDocument());
    await expect(plain.lookup.error()).toHaveText(tr('dashboard.errorCustomerNotFound'));
    await expect(other.getByRole('button', { name: tr('enroll.open') })).toHaveCount(0);
  });
});
