// /settings/customers: add, validation and duplicate errors, the server's paged search, edit, hard
// delete; the soft delete of a customer with transactions is in operations/history.spec.ts
// (docs/screens.md).

import { expect, test } from '../../support/fixtures';
import { t } from '../../support/i18n';
import { CustomersScreen } from '../../support/pages/settings';

test('adds a customer, refusing missing name or document, a bad email and a duplicate document', async ({ newCompanyAdmin }) => {
  const { company, page } = await newCompanyAdmin();
  const screen = new CustomersScreen(page);
  await screen.goto();
  await expect(screen.list.emptyText()).toHaveText(t('customers.empty'));

  await screen.add({ 'customers.fields.name': 'Valentina Ríos' }, { consent: false });
  await expect(screen.addError()).toHaveText(t('customers.errorNameAndIdRequired'));

  // The privacy notice in force is shown; without the required purpose nobody is added.
  await expect(screen.consent().root(1)).toBeVisible();
  await screen.add({ 'customers.fields.document': '1020304050' }, { consent: false });
  await expect(screen.addError()).toHaveText(t('privacy.consent.errorRequired'));

  await screen.add({ 'customers.fields.document': '1020304050', 'customers.fields.email': 'valentina@' });
  await expect(screen.addError()).toHaveText(t('customers.errorInvalidEmail'));

  await screen.add({
    'customers.fields.email': 'valentina@example.com',
    'customers.fields.phone': '3001234567',
    'customers.fields.address': 'Calle 80 # 10-20',
    'customers.fields.birthdate': '1990-04-15',
  });
  await expect(screen.toast(t('customers.successAdded'))).toBeVisible();
  await expect(screen.addField('customers.fields.name')).toHaveValue('');

  const row = screen.list.row('Valentina Ríos');
  await expect(row).toContainText('V');
  await expect(row).toContainText(t('customers.documentValue', { document: '1.020.304.050' }));
  await expect(row.getByRole('link', { name: 'valentina@example.com' })).toHaveAttribute('href', 'mailto:valentina@example.com');
  await expect(row).toContainText(t('customers.pointsValue', { points: '0' }));
  expect(await company.api.customerByDocument('1020304050')).toMatchObject({
    name: 'Valentina Ríos',
    email: 'valentina@example.com',
    phone: '3001234567',
    address: 'Calle 80 # 10-20',
    birthdate: '1990-04-15',
    points: 0,
  });
  const { id } = await company.api.customerByDocument('1020304050');
  const consents = await company.api.customerConsents(id);
  expect(consents.current.map(({ purpose, granted, noticeVersion, recordedBy }) => ({ purpose, granted, noticeVersion, recordedBy }))).toEqual([
    { purpose: 'loyalty', granted: true, noticeVersion: 1, recordedBy: 'admin' },
    { purpose: 'marketing', granted: false, noticeVersion: 1, recordedBy: 'admin' },
  ]);
  // The next customer is asked again: the boxes are cleared.
  await expect(screen.consent().required()).not.toBeChecked();

  await screen.add({ 'customers.fields.name': 'Otra Persona', 'customers.fields.document': '1020304050' });
  await expect(screen.addError()).toHaveText(t('customers.errorDocumentExists'));
});

test('searches by name on the server and pages the results', async ({ newCompanyAdmin }) => {
  const { company, page } = await newCompanyAdmin();
  const names = ['Ana', 'Bruno', 'Carla', 'Diego', 'Elena', 'Fabio', 'Gloria', 'Hugo', 'Irene', 'Julián', 'Karen', 'Luis', 'Mónica'];
  for (const [index, name] of names.entries()) {
    await company.api.createCustomer({ name: `${name} Pérez`, document: String(5000 + index) });
  }
  const screen = new CustomersScreen(page);
  const list = screen.list;
  await screen.goto();
  await expect(list.range()).toHaveText(list.rangeText(1, 10, 13));
  await expect(list.rows().first()).toContainText('Ana Pérez');
  await list.next().click();
  await expect(list.range()).toHaveText(list.rangeText(11, 13, 13));
  await expect(list.rows()).toHaveText([/Karen Pérez/, /Luis Pérez/, /Mónica Pérez/]);
  await expect(list.next()).toBeDisabled();

  // Page 2 of a search with one page snaps back to page 1.
  await list.search().fill('ELENA');
  await expect(list.range()).toHaveText(list.rangeText(1, 1, 1));
  await expect(list.rows()).toHaveText([/Elena Pérez/]);
  await list.search().fill('zzz');
  await expect(list.emptyText()).toHaveText(t('customers.noResults'));
  await list.search().fill('');
  await expect(list.range()).toHaveText(list.rangeText(1, 10, 13));
  await list.perPage().selectOption('25');
  await expect(list.range()).toHaveText(list.rangeText(1, 13, 13));
});

test('edits a customer; the name stays required', async ({ newCompanyAdmin }) => {
  const { company, page } = await newCompanyAdmin();
  const customer = await company.api.createCustomer({ name: 'Camilo Torres', document: '79888777' });
  const screen = new CustomersScreen(page);
  await screen.goto();
  await screen.edit('Camilo Torres');
  const dialog = screen.editDialog();
  await expect(dialog.field(t('customers.fields.document'))).toHaveValue('79.888.777');
  await dialog.save({ 'customers.fields.name': ' ' });
  await expect(dialog.error()).toHaveText(t('customers.errorNameRequired'));
  await dialog.save({
    'customers.fields.name': 'Camilo Andrés Torres',
    'customers.fields.phone': '3109876543',
    'customers.fields.birthdate': '1985-12-01',
  });
  await expect(screen.toast(t('customers.successUpdated'))).toBeVisible();
  await expect(screen.list.row('Camilo Andrés Torres')).toBeVisible();
  expect(await company.api.customerByDocument('79888777')).toMatchObject({
    id: customer.id,
    name: 'Camilo Andrés Torres',
    phone: '3109876543',
    birthdate: '1985-12-01',
  });
});

test('deletes a customer without transactions after the hard confirmation text', async ({ newCompanyAdmin }) => {
  const { company, page } = await newCompanyAdmin();
  await company.api.createCustomer({ name: 'Cliente Temporal', document: '11122233' });
  const screen = new CustomersScreen(page);
  await screen.goto();
  const confirm = await screen.askToDelete('Cliente Temporal', t('customers.deleteHard', { name: 'Cliente Temporal' }));
  await confirm.confirm().click();
  await expect(screen.toast(t('customers.successDeleted'))).toBeVisible();
  await expect(screen.list.emptyText()).toHaveText(t('customers.empty'));
  expect(await company.api.customers()).toEqual([]);
});
