// The server's refusals read in the screen's language: the client sends its language with every
// call and shows its own translation of the server's code (the ledger's own rows are rendered
// in the reader's language by the report and receipt specs).

import { expect, inEachLanguage, test, uniqueTag } from '../support/fixtures';
import { t } from '../support/i18n';
import { CustomersScreen } from '../support/pages/settings';
import { SuperAdminPage } from '../support/pages/superadmin';

inEachLanguage(({ locale }) => {
  test("a customer's birthdate in the future is refused in the screen's language", async ({ newCompanyAdmin }) => {
    const { page } = await newCompanyAdmin({ locale });
    const screen = new CustomersScreen(page, locale);
    await screen.goto();
    await screen.add({
      'customers.fields.name': 'Valentina Ríos',
      'customers.fields.document': '1020304050',
      'customers.fields.birthdate': '2999-01-01',
    });
    await expect(screen.addError()).toHaveText(t('errors.field.birthdateRange', {}, locale));
  });

  test("a prefix already in use is refused in the screen's language", async ({ newCompany, superApi, pageWithSession }) => {
    const existing = await newCompany();
    const page = await pageWithSession(superApi.session!, { locale });
    const screen = new SuperAdminPage(page, locale);
    await screen.goto();
    await screen.createButton().click();
    const dialog = screen.createDialog();
    await dialog.companyField('name').fill(`Copia ${uniqueTag()}`);
    await dialog.companyField('prefix').fill(existing.prefix);
    await dialog.companyField('taxId').fill('900000001');
    await dialog.companyField('adminPassword').fill('clave-admin-1');
    await dialog.createButton().click();
    await expect(dialog.error()).toHaveText(t('errors.company.prefixExists', {}, locale));
  });
});
