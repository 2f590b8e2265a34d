// /settings/categories: name and icon (searchable icon picker), search, paging, edit, hard and
// soft delete (docs/screens.md).

import { expect, test } from '../../support/fixtures';
import { t } from '../../support/i18n';
import { CategoriesScreen } from '../../support/pages/settings';

test('adds a category with an icon from the picker, refusing a missing icon and a duplicate', async ({ newCompanyAdmin }) => {
  const { company, page } = await newCompanyAdmin();
  const screen = new CategoriesScreen(page);
  await screen.goto();
  await expect(screen.list.emptyText()).toHaveText(t('categories.empty'));

  await screen.add({ 'categories.fields.name': 'Regalos' });
  await expect(screen.addError()).toHaveText(t('categories.errorRequired'));

  await test.step('the picker searches the icon names', async () => {
    await screen.addForm.getByRole('button', { name: t('categories.chooseIcon') }).click();
    const picker = screen.iconPicker();
    await expect(picker.getByRole('listitem')).toHaveCount(26);
    await picker.getByRole('searchbox').fill('shopping');
    await expect(picker.getByRole('button')).toContainText([screen.iconLabel('ShoppingBag'), screen.iconLabel('ShoppingCart')]);
    await picker.getByRole('searchbox').fill('no-such-icon');
    await expect(picker.getByText(t('categories.iconPicker.noResults'))).toBeVisible();
    await picker.getByRole('searchbox').fill('gift');
    await picker.getByRole('button', { name: screen.iconLabel('Gift'), exact: true }).click();
    await expect(picker).toHaveCount(0);
    await expect(screen.addForm.getByTestId('icon-field-value')).toHaveText(screen.iconLabel('Gift'));
  });

  await screen.addButton().click();
  await expect(screen.toast(t('categories.successAdded'))).toBeVisible();
  await expect(screen.list.row('Regalos')).toBeVisible();
  expect(await company.api.categories()).toEqual([expect.objectContaining({ name: 'Regalos', icon: 'Gift' })]);

  await screen.addField('categories.fields.name').fill('REGALOS');
  await screen.pickIcon(screen.addForm, 'Star');
  await screen.addButton().click();
  await expect(screen.addError()).toHaveText(t('categories.errorExists'));
});

test('searches and pages the categories', async ({ newCompanyAdmin }) => {
  const { company, page } = await newCompanyAdmin();
  const names = ['Aseo', 'Bebidas', 'Cuidado personal', 'Deportes', 'Electrónica', 'Ferretería', 'Hogar', 'Juguetes', 'Licores', 'Mascotas', 'Papelería', 'Snacks'];
  for (const name of names) await company.api.createCategory(name, 'Tag');
  const screen = new CategoriesScreen(page);
  const list = screen.list;
  await screen.goto();
  await expect(list.range()).toHaveText(list.rangeText(1, 10, 12));
  await expect(list.rows()).toHaveText(names.slice(0, 10).map((name) => new RegExp(name)));
  await list.next().click();
  await expect(list.rows()).toHaveText([/Papelería/, /Snacks/]);
  await list.search().fill('ERÍA');
  await expect(list.range()).toHaveText(list.rangeText(1, 2, 2));
  await expect(list.rows()).toHaveText([/Ferretería/, /Papelería/]);
  await list.search().fill('zzz');
  await expect(list.emptyText()).toHaveText(t('categories.noResults'));
});

test('edits the name and the icon', async ({ newCompanyAdmin }) => {
  const { company, page } = await newCompanyAdmin();
  const category = await company.api.createCategory('Bebida', 'Cake');
  const screen = new CategoriesScreen(page);
  await screen.goto();
  await screen.edit('Bebida');
  const dialog = screen.editDialog();
  await dialog.save({ 'categories.fields.name': '' });
  await expect(dialog.error()).toHaveText(t('categories.errorRequired'));
  await dialog.field(t('categories.fields.name')).fill('Bebidas frías');
  await screen.pickIcon(dialog.root, 'Sparkles', 'spark');
  await dialog.update().click();
  await expect(screen.toast(t('categories.successUpdated'))).toBeVisible();
  await expect(screen.list.row('Bebidas frías')).toContainText(t('settings.idValue', { id: category.id }));
  expect(await company.api.categories()).toEqual([{ id: category.id, name: 'Bebidas frías', icon: 'Sparkles' }]);
});

test('deletes: the hard text for an unused category, the soft text for one products use', async ({ newCompanyAdmin }) => {
  const { company, page } = await newCompanyAdmin();
  await company.api.createCategory('Sin uso', 'Tag');
  const used = await company.api.createCategory('En uso', 'Gift');
  await company.api.createProduct({ code: 'P-1', name: 'Producto', price: 1000, pointsValue: 10, categoryId: used.id });
  const screen = new CategoriesScreen(page);
  const confirm = screen.deleteDialog();
  await screen.goto();

  await screen.delete('Sin uso');
  await expect(confirm.root).toContainText(t('categories.deleteHard', { name: 'Sin uso' }));
  await confirm.confirm().click();
  await expect(screen.toast(t('categories.successDeleted'))).toBeVisible();
  await expect(screen.list.rows()).toHaveText([/En uso/]);

  await screen.delete('En uso');
  await expect(confirm.root).toContainText(t('categories.deleteSoft', { name: 'En uso' }));
  await confirm.confirm().click();
  await expect(screen.list.emptyText()).toHaveText(t('categories.empty'));
  expect(await company.api.categories()).toEqual([]);
  // The product keeps its category's name.
  expect((await company.api.products())[0]).toMatchObject({ categoryId: used.id, categoryName: 'En uso' });
});
