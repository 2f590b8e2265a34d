// /settings/products: add (digits-only price and points with Colombian grouping), validation and
// duplicate errors, search by name or code, paging, edit (active/inactive), hard delete; the soft
// delete of a product with transactions is in operations/history.spec.ts (docs/screens.md).

import { expect, test } from '../../support/fixtures';
import { t } from '../../support/i18n';
import { ProductsScreen } from '../../support/pages/settings';

test('adds a product, with digits-only amounts, refusing a missing code or name and a duplicate code', async ({ newCompanyAdmin }) => {
  const { company, page } = await newCompanyAdmin();
  const category = await company.api.createCategory('Hogar', 'HomeModern');
  const screen = new ProductsScreen(page);
  await screen.goto();
  await expect(screen.list.emptyText()).toHaveText(t('products.empty'));

  await screen.add({ 'products.fields.name': 'Termo de Acero' });
  await expect(screen.addError()).toHaveText(t('products.errorRequired'));

  await screen.addField('products.fields.code').fill('TER-01');
  await screen.addField('products.fields.category').selectOption({ label: 'Hogar' });
  await screen.addField('products.fields.description').fill('Termo de 1 litro');
  const price = screen.addField('products.fields.price');
  // An amount of 0 shows as the placeholder, so what is typed is the whole amount wherever the
  // caret is (a '0' in the text once made 45000 typed before it 450.000).
  await expect(price).toHaveValue('');
  await expect(price).toHaveAttribute('placeholder', '0');
  await price.click();
  await price.press('Home');
  await price.pressSequentially('45a.0 00');
  await expect(price).toHaveValue('45.000');
  const points = screen.addField('products.fields.pointsValue');
  await points.selectText();
  await points.pressSequentially('1500');
  await expect(points).toHaveValue('1.500');
  await points.fill('');
  await expect(points).toHaveValue('');
  await points.fill('1500');
  await expect(screen.addField('products.fields.active')).toBeChecked();
  await screen.addButton().click();
  await expect(screen.toast(t('products.successAdded'))).toBeVisible();

  const row = screen.list.row('Termo de Acero');
  await expect(row).toContainText(t('products.codeValue', { code: 'TER-01' }));
  await expect(row).toContainText('Hogar');
  await expect(row).toContainText('45.000');
  await expect(row).toContainText(t('products.pointsValueText', { points: '1.500' }));
  await expect(row).toContainText(t('common.active'));
  await expect(row.getByRole('img', { name: t('products.noImage') })).toBeVisible();
  expect(await company.api.products()).toEqual([
    expect.objectContaining({ code: 'TER-01', name: 'Termo de Acero', price: 45000, pointsValue: 1500, categoryId: category.id, is_active: true }),
  ]);

  await screen.add({ 'products.fields.code': 'TER-01', 'products.fields.name': 'Otro termo', 'products.fields.pointsValue': '10' });
  await expect(screen.addError()).toHaveText(t('products.errorExists'));
});

test('searches by name or code and pages the catalog', async ({ newCompanyAdmin }) => {
  const { company, page } = await newCompanyAdmin();
  for (let i = 1; i <= 11; i += 1) {
    await company.api.createProduct({ code: `SKU-${100 + i}`, name: `Artículo ${String(i).padStart(2, '0')}`, price: 1000 * i, pointsValue: 10 * i });
  }
  const screen = new ProductsScreen(page);
  const list = screen.list;
  await screen.goto();
  await expect(list.range()).toHaveText(list.rangeText(1, 10, 11));
  await list.next().click();
  await expect(list.rows()).toHaveText([/Artículo 11/]);
  await list.search().fill('sku-105');
  await expect(list.range()).toHaveText(list.rangeText(1, 1, 1));
  await expect(list.rows()).toHaveText([/Artículo 05/]);
  await list.search().fill('artículo 1');
  await expect(list.rows()).toHaveText([/Artículo 10/, /Artículo 11/]);
  await list.search().fill('nada');
  await expect(list.emptyText()).toHaveText(t('products.noResults'));
});

test('edits a product and deactivates it', async ({ newCompanyAdmin }) => {
  const { company, page } = await newCompanyAdmin();
  await company.api.createProduct({ code: 'CAF-01', name: 'Café', price: 15000, pointsValue: 500 });
  await company.api.createProduct({ code: 'TE-01', name: 'Té', price: 8000, pointsValue: 200 });
  const screen = new ProductsScreen(page);
  await screen.goto();
  await screen.edit('Café');
  const dialog = screen.editDialog();
  await expect(dialog.field(t('products.fields.price'))).toHaveValue('15.000');
  await dialog.save({ 'products.fields.code': 'TE-01' });
  await expect(dialog.error()).toHaveText(t('products.errorExists'));
  await dialog.save({ 'products.fields.code': '' });
  await expect(dialog.error()).toHaveText(t('products.errorRequired'));

  await dialog.field(t('products.fields.code')).fill('CAF-02');
  await dialog.field(t('products.fields.name')).fill('Café Especial');
  await dialog.field(t('products.fields.price')).fill('18000');
  await dialog.field(t('products.fields.active')).uncheck();
  await dialog.update().click();
  await expect(screen.toast(t('products.successUpdated'))).toBeVisible();
  await expect(screen.list.row('Café Especial')).toHaveCount(0);
  await screen.list.showInactive().check();
  const row = screen.list.row('Café Especial');
  await expect(row).toContainText(t('common.inactive'));
  await expect(row).toContainText('18.000');
  expect((await company.api.products()).find((p) => p.code === 'CAF-02')).toMatchObject({ name: 'Café Especial', price: 18000, is_active: false });
});

test('deletes an unused product after the hard confirmation text', async ({ newCompanyAdmin }) => {
  const { company, page } = await newCompanyAdmin();
  await company.api.createProduct({ code: 'X-1', name: 'Producto de prueba', price: 1000, pointsValue: 10 });
  const screen = new ProductsScreen(page);
  await screen.goto();
  const confirm = await screen.askToDelete('Producto de prueba', t('products.deleteHard', { name: 'Producto de prueba' }));
  await confirm.confirm().click();
  await expect(screen.toast(t('products.successDeleted'))).toBeVisible();
  await expect(screen.list.emptyText()).toHaveText(t('products.empty'));
  expect(await company.api.products()).toEqual([]);
});
