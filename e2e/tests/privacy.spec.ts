// The privacy notice (docs/privacy.md): public without login at /privacidad/{prefix}, in both
// languages for the page's own words; an admin publishes a new version in the settings, and the
// till's enrolment then shows and records that version.

import { expect, inEachLanguage, test } from '../support/fixtures';
import { AccreditPanel } from '../support/pages/operations';
import { ConsentBlock, PrivacySettingsScreen, PublicNoticePage } from '../support/pages/privacy';
import { CustomersScreen } from '../support/pages/settings';
import { missing } from '../support/run';
import { seedShop, uniqueDocument } from '../support/seed';

inEachLanguage(({ locale, tr }) => {
  test('the public page shows the notice in force without logging in', async ({ newCompany, browser, pageOptions }) => {
    const company = await newCompany();
    const context = await browser.newContext(pageOptions);
    await context.addInitScript((lang) => window.localStorage.setItem('locale', lang), locale);
    const page = await context.newPage();
    const notice = new PublicNoticePage(page, company.prefix, locale);

    await notice.goto();
    await expect(notice.heading(company.name)).toBeVisible();
    await expect(notice.article()).toContainText(`${company.name}, responsable del tratamiento`);
    await expect(notice.article()).toContainText(tr('privacy.public.purposes'));

    await company.api.publishNotice({
      body: `Aviso de ${company.name}, versión 2: escríbanos a datos@example.com.`,
      purposes: [
        { key: 'loyalty', description: 'Programa de puntos.' },
        { key: 'marketing', description: 'Ofertas.' },
      ],
    });
    await page.reload();
    await expect(notice.article()).toContainText('versión 2: escríbanos a datos@example.com.');
    await expect(notice.article()).not.toContainText('responsable del tratamiento');

    await new PublicNoticePage(page, `nadie${company.prefix}`, locale).goto();
    await expect(page.getByRole('alert')).toHaveText(tr('privacy.public.notFound'));
    await context.close();
  });
});

test('an admin publishes version 2 and the till then asks for version 2', async ({ newCompanyAdmin, apiAs, pageWithSession, run }) => {
  test.skip(!run.capabilities.points, missing('points'));
  const { company, page } = await newCompanyAdmin();
  const shop = await seedShop(company);
  await company.api.saveSettings({
    rolePermissions: { supervisor: ['/main', '/accreditar'], cajero: ['/accreditar', '/settings/customers'] },
  });

  const settings = new PrivacySettingsScreen(page);
  await settings.goto();
  await expect(settings.inForce(1)).toBeVisible();
  await expect(settings.body()).toHaveValue(/responsable del tratamiento/);
  await settings.body().fill(`Aviso de ${company.name}, versión 2. Atención: datos@example.com.`);
  await settings.publish().click();
  await expect(page.getByRole('status').filter({ hasText: settings.t('privacy.settings.published', { version: 2 }) })).toBeVisible();
  await expect(settings.inForce(2)).toBeVisible();
  await expect(settings.versions()).toHaveCount(2);

  const carlos = await apiAs(shop.cajero);
  const till = await pageWithSession(carlos.session!);
  await till.goto('/accreditar');
  const accredit = new AccreditPanel(till.getByRole('main'), 'es');
  const document = uniqueDocument();
  await accredit.lookup.find(document);
  await till.getByRole('button', { name: settings.t('enroll.open') }).click();
  const dialog = till.getByRole('dialog', { name: settings.t('enroll.title') });
  const consent = new ConsentBlock(dialog);
  await expect(consent.root(2)).toBeVisible();
  await dialog.getByText(settings.t('privacy.consent.readNotice')).click();
  await expect(dialog).toContainText('versión 2. Atención: datos@example.com.');
  await dialog.getByLabel(settings.t('customers.fields.name')).fill('Mateo Gil');
  await consent.required().check();
  await dialog.getByRole('button', { name: settings.t('enroll.submit') }).click();
  await expect(dialog).toHaveCount(0);

  const enrolled = await company.api.customerByDocument(document);
  const consents = await company.api.customerConsents(enrolled.id);
  expect(consents.current.find((c) => c.purpose === 'loyalty')).toMatchObject({ granted: true, noticeVersion: 2, recordedBy: 'carlos' });
});

inEachLanguage(({ locale, tr }) => {
  test("a customer's optional purpose is granted later, and unticking the required one files a claim", async ({ newCompanyAdmin }) => {
    const { company, page } = await newCompanyAdmin({ locale });
    const name = `Lucía ${uniqueDocument()}`;
    const { version } = await company.api.currentNotice();
    const consent = { noticeVersion: version, purposes: ['loyalty'], channel: 'store' as const };
    const customer = await company.api.createCustomer({ name, document: uniqueDocument(), consent });
    const screen = new CustomersScreen(page, locale);
    await screen.goto();

    let dialog = await screen.openConsents(name);
    await expect(new ConsentBlock(dialog, locale).required()).toBeChecked();
    const marketing = dialog.getByRole('checkbox', { name: new RegExp(`\\(${tr('privacy.consent.optional')}\\)$`) }).first();
    await expect(marketing).not.toBeChecked();
    await marketing.check();
    await dialog.getByRole('button', { name: tr('privacy.consents.save') }).click();
    await expect(dialog).toHaveCount(0);
    let consents = await company.api.customerConsents(customer.id);
    expect(consents.current.filter((c) => c.granted).map((c) => c.purpose).sort()).toEqual(['loyalty', 'marketing']);

    dialog = await screen.openConsents(name);
    await expect(new ConsentBlock(dialog, locale).required()).toBeChecked();
    await new ConsentBlock(dialog, locale).required().uncheck();
    await expect(dialog.getByTestId('revocation-warning')).toHaveText(tr('privacy.consents.revokeRequiredWarning'));
    await dialog.getByRole('button', { name: tr('privacy.consents.save') }).click();
    await expect(dialog).toHaveCount(0);
    await expect(screen.list.root.getByTestId('claim-in-progress')).toBeVisible();
    consents = await company.api.customerConsents(customer.id);
    // The authorization stays recorded until the shop answers the claim.
    expect(consents.current.find((c) => c.purpose === 'loyalty')?.granted).toBe(true);
  });
});
