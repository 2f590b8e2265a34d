// /settings/pos: add, validation and duplicate errors, search, page size and paging rules, edit,
// hard and soft delete (docs/screens.md).

import { expect, test } from '../../support/fixtures';
import { t } from '../../support/i18n';
import { PosScreen } from '../../support/pages/settings';

test('adds a point of sale, refusing an empty name and a duplicate', async ({ newCompanyAdmin }) => {
  const { company, page } = await newCompanyAdmin();
  const screen = new PosScreen(page);
  await screen.goto();
  await expect(screen.heading()).toBeVisible();
  await expect(screen.list.emptyText()).toHaveText(t('pos.empty'));

  await screen.addButton().click();
  await expect(screen.addError()).toHaveText(t('pos.errorNameRequired'));

  await screen.add({ 'pos.fields.name': '  Caja Principal  ' });
  await expect(screen.toast(t('pos.successAdded'))).toBeVisible();
  await expect(screen.addField('pos.fields.name')).toHaveValue('');
  await expect(screen.list.rows()).toHaveCount(1);
  const [created] = await company.api.pointsOfSale();
  expect(created?.name).toBe('Caja Principal');
  await expect(screen.list.row('Caja Principal')).toContainText(t('settings.idValue', { id: created!.id }));

  await screen.add({ 'pos.fields.name': 'caja principal' });
  await expect(screen.addError()).toHaveText(t('pos.errorExists'));
  await expect(screen.list.rows()).toHaveCount(1);
});

test('searches, pages 10/25/50, snaps to the last page and resets to page 1 on a size change', async ({ newCompanyAdmin }) => {
  const { company, page } = await newCompanyAdmin();
  for (let i = 1; i <= 23; i += 1) await company.api.createPos(`Tienda ${String(i).padStart(2, '0')}`);
  const screen = new PosScreen(page);
  const list = screen.list;
  await screen.goto();

  await expect(list.perPage()).toHaveValue('10');
  await expect(list.perPage().getByRole('option')).toHaveText(['10', '25', '50']);
  await expect(list.range()).toHaveText(list.rangeText(1, 10, 23));
  await expect(list.rows().first()).toContainText('Tienda 01');
  await expect(list.previous()).toBeDisabled();

  await list.next().click();
  await list.next().click();
  await expect(list.range()).toHaveText(list.rangeText(21, 23, 23));
  await expect(list.rows()).toHaveCount(3);
  await expect(list.next()).toBeDisabled();

  // '1' matches Tienda 01, 10-19 and 21: 12 rows, so page 3 snaps to page 2.
  await list.search().fill('1');
  await expect(list.range()).toHaveText(list.rangeText(11, 12, 12));
  await list.search().fill('TIENDA 2');
  await expect(list.range()).toHaveText(list.rangeText(1, 4, 4));
  await expect(list.rows()).toHaveText([/Tienda 20/, /Tienda 21/, /Tienda 22/, /Tienda 23/]);
  await list.search().fill('Bodega');
  await expect(list.emptyText()).toHaveText(t('pos.noResults'));
  await list.search().fill('');

  await list.next().click();
  await expect(list.range()).toHaveText(list.rangeText(11, 20, 23));
  await list.perPage().selectOption('25');
  await expect(list.range()).toHaveText(list.rangeText(1, 23, 23));
  await expect(list.next()).toBeDisabled();
  await list.perPage().selectOption('50');
  await expect(list.rows()).toHaveCount(23);
});

test('edits a point of sale, refusing an empty name and a duplicate', async ({ newCompanyAdmin }) => {
  const { company, page } = await newCompanyAdmin();
  await company.api.createPos('Caja Centro');
  await company.api.createPos('Caja Norte');
  const screen = new PosScreen(page);
  await screen.goto();

  await screen.edit('Caja Centro');
  const dialog = screen.editDialog();
  const name = dialog.field(t('pos.fields.name'));
  await expect(name).toHaveValue('Caja Centro');
  await name.fill('');
  await dialog.update().click();
  await expect(dialog.error()).toHaveText(t('pos.errorNameRequired'));
  await name.fill('Caja Norte');
  await dialog.update().click();
  await expect(dialog.error()).toHaveText(t('pos.errorExists'));

  await dialog.cancel().click();
  await expect(dialog.root).toHaveCount(0);
  await expect(screen.list.row('Caja Centro')).toBeVisible();

  await screen.edit('Caja Centro');
  await name.fill('Caja Centro Comercial');
  await dialog.update().click();
  await expect(dialog.root).toHaveCount(0);
  await expect(screen.toast(t('pos.successUpdated'))).toBeVisible();
  await expect(screen.list.rows()).toHaveText([/Caja Centro Comercial/, /Caja Norte/]);
  expect((await company.api.pointsOfSale()).map((p) => p.name)).toEqual(['Caja Centro Comercial', 'Caja Norte']);
});

test('deletes: the hard text for an unused point of sale, the soft text for one with users', async ({ newCompanyAdmin }) => {
  const { company, page } = await newCompanyAdmin();
  await company.api.createPos('Caja Vacía');
  const staffed = await company.api.createPos('Caja Con Personal');
  await company.api.createUser({ username: 'lucia', password: 'clave-lucia-1', role: 'cajero', posId: staffed.id });
  const screen = new PosScreen(page);
  await screen.goto();

  const confirm = await screen.askToDelete('Caja Vacía', t('pos.deleteHard', { name: 'Caja Vacía' }));
  await confirm.cancel().click();
  await expect(confirm.root).toHaveCount(0);
  await expect(screen.list.rows()).toHaveCount(2);

  await screen.delete('Caja Vacía');
  await expect(confirm.root).toContainText(t('pos.deleteHard', { name: 'Caja Vacía' }));
  await confirm.confirm().click();
  await expect(screen.toast(t('pos.successDeleted'))).toBeVisible();
  await expect(screen.list.rows()).toHaveText([/Caja Con Personal/]);

  await screen.delete('Caja Con Personal');
  await expect(confirm.root).toContainText(t('pos.deleteSoft', { name: 'Caja Con Personal' }));
  await confirm.confirm().click();
  await expect(screen.list.emptyText()).toHaveText(t('pos.empty'));
  // Deactivated, not removed: the cashier still names it.
  expect(await company.api.pointsOfSale()).toEqual([]);
  const users = await company.api.users();
  expect(users.find((u) => u.username === 'lucia')).toMatchObject({ posId: staffed.id, posName: 'Caja Con Personal' });
});
