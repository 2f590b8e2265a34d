// /settings/users: add with username@prefix, role and point of sale rules, validation and duplicate
// errors, search and paging, role/POS edit, self-delete refused, hard delete; the soft delete of a
// user with transactions is in operations/history.spec.ts (docs/screens.md).

import { ApiError, LoyaltyApi } from '../../support/api';
import { expect, test } from '../../support/fixtures';
import { t } from '../../support/i18n';
import { UsersScreen } from '../../support/pages/settings';

test('adds a cashier at a point of sale; an admin has none', async ({ newCompanyAdmin, run }) => {
  const { company, page } = await newCompanyAdmin();
  await company.api.createPos('Caja Norte');
  await company.api.createPos('Caja Sur');
  const screen = new UsersScreen(page);
  await screen.goto();
  await expect(screen.addForm).toContainText(`@${company.prefix}`);

  const username = screen.addField('users.fields.username');
  const password = screen.addField('users.fields.password');
  const role = screen.addField('users.fields.role');
  const pos = screen.addField('users.fields.pos');

  await screen.addButton().click();
  await expect(screen.addError()).toHaveText(t('users.errorAllFieldsRequired'));

  await username.fill('andrea');
  await password.fill('clave-andrea-1');
  await role.selectOption({ label: t('roles.cajero') });
  await screen.addButton().click();
  await expect(screen.addError()).toHaveText(t('users.errorAllFieldsRequired'));

  await test.step('an admin works at no point of sale', async () => {
    await pos.selectOption({ label: 'Caja Sur' });
    await role.selectOption({ label: t('roles.admin') });
    await expect(pos).toBeDisabled();
    await expect(pos).toHaveValue('');
    await expect(pos).toContainText(t('common.notApplicable'));
    await role.selectOption({ label: t('roles.cajero') });
    await expect(pos).toBeEnabled();
    await expect(pos).toHaveValue('');
  });

  await test.step('username and password rules', async () => {
    await pos.selectOption({ label: 'Caja Sur' });
    await username.fill('andrea lópez!');
    await screen.addButton().click();
    await expect(screen.addError()).toHaveText(t('users.errorUsernameFormat'));
    await username.fill('andrea');
    await password.fill('corta');
    await screen.addButton().click();
    await expect(screen.addError()).toHaveText(t('users.errorPasswordLength'));
    await password.fill('clave-andrea-1');
  });

  await screen.addButton().click();
  await expect(screen.toast(t('users.successAdded', { login: `andrea@${company.prefix}` }))).toBeVisible();
  const row = screen.list.row(/^andrea/);
  await expect(row).toContainText(t('roles.cajero'));
  await expect(row).toContainText('Caja Sur');
  const andrea = await LoyaltyApi.login(run.baseURL, `andrea@${company.prefix}`, 'clave-andrea-1');
  expect(andrea.session?.user).toMatchObject({ role: 'cajero', posName: 'Caja Sur' });
  await andrea.dispose();

  await username.fill('ANDREA');
  await password.fill('otra-clave-1');
  await role.selectOption({ label: t('roles.supervisor') });
  await pos.selectOption({ label: 'Caja Norte' });
  await screen.addButton().click();
  await expect(screen.addError()).toHaveText(t('users.errorExists'));
});

test('lists the admin as "you" with delete disabled, searches and pages', async ({ newCompanyAdmin }) => {
  const { company, page } = await newCompanyAdmin();
  const pos = await company.api.createPos('Caja');
  for (let i = 1; i <= 10; i += 1) {
    await company.api.createUser({ username: `cajero${String(i).padStart(2, '0')}`, password: 'clave-cajero-1', role: 'cajero', posId: pos.id });
  }
  const screen = new UsersScreen(page);
  const list = screen.list;
  await screen.goto();
  await expect(list.range()).toHaveText(list.rangeText(1, 10, 11));
  const me = list.row(/^admin/);
  await expect(me).toContainText(t('users.you'));
  await expect(me).toContainText(`${t('roles.admin')} · ${t('common.notApplicable')}`);
  await expect(list.deleteButton('admin')).toBeDisabled();
  await expect(list.deleteButton('admin')).toHaveAttribute('title', t('users.errorDeleteSelf'));
  await list.next().click();
  await expect(list.rows()).toHaveText([/^cajero10/]);

  await list.search().fill('CAJERO1');
  await expect(list.rows()).toHaveText([/^cajero10/]);
  await list.search().fill('nadie');
  await expect(list.emptyText()).toHaveText(t('users.noResults'));
});

test('edits only the role and point of sale; admin clears the point of sale', async ({ newCompanyAdmin }) => {
  const { company, page } = await newCompanyAdmin();
  const north = await company.api.createPos('Caja Norte');
  await company.api.createPos('Caja Sur');
  const user = await company.api.createUser({ username: 'mateo', password: 'clave-mateo-1', role: 'cajero', posId: north.id });
  const screen = new UsersScreen(page);
  await screen.goto();

  await screen.edit('mateo');
  const dialog = screen.editDialog({ login: `mateo@${company.prefix}` });
  await expect(dialog.root).toContainText(t('users.editHint'));
  await expect(dialog.field(t('users.fields.username'))).toHaveCount(0);
  const role = dialog.field(t('users.fields.role'));
  const pos = dialog.field(t('users.fields.pos'));
  await expect(pos).toHaveValue(String(north.id));

  await role.selectOption({ label: t('roles.admin') });
  await expect(pos).toBeDisabled();
  await role.selectOption({ label: t('roles.supervisor') });
  await dialog.update().click();
  await expect(dialog.error()).toHaveText(t('users.errorAllFieldsRequired'));

  await pos.selectOption({ label: 'Caja Sur' });
  await dialog.update().click();
  await expect(screen.toast(t('users.successUpdated'))).toBeVisible();
  await expect(screen.list.row(/^mateo/)).toContainText(`${t('roles.supervisor')} · Caja Sur`);

  await screen.edit('mateo');
  await role.selectOption({ label: t('roles.admin') });
  await dialog.update().click();
  await expect(screen.list.row(/^mateo/)).toContainText(`${t('roles.admin')} · ${t('common.notApplicable')}`);
  expect((await company.api.users()).find((u) => u.id === user.id)).toMatchObject({ role: 'admin', posId: null });
});

test('deletes a user without transactions for good; the login stops working', async ({ newCompanyAdmin, run }) => {
  const { company, page } = await newCompanyAdmin();
  const pos = await company.api.createPos('Caja');
  await company.api.createUser({ username: 'temporal', password: 'clave-temporal-1', role: 'cajero', posId: pos.id });
  const screen = new UsersScreen(page);
  await screen.goto();
  const confirm = await screen.askToDelete('temporal', t('users.deleteHard', { name: `temporal@${company.prefix}` }));
  await confirm.confirm().click();
  await expect(screen.toast(t('users.successDeleted'))).toBeVisible();
  await expect(screen.list.rows()).toHaveText([/^admin/]);
  await expect(LoyaltyApi.login(run.baseURL, `temporal@${company.prefix}`, 'clave-temporal-1')).rejects.toBeInstanceOf(ApiError);
});
