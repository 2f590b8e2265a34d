// /settings/customers → Import: a dry run of a small CSV lists its bad row, then the import adds
// the valid customers with their opening points (docs/import.md).

import { expect, test } from '../../support/fixtures';
import { t } from '../../support/i18n';
import { CustomersScreen } from '../../support/pages/settings';

const CSV = [
  'documento;nombre;correo;puntos;consentimiento',
  '1.020.304.050;Ana Import;ana@example.com;150;store',
  '555;Beto Import;no-es-correo;10;web',
  '7777;Carla Import;;0;import',
].join('\n');

test('checks a CSV, shows its bad row, then imports the valid customers with their opening points', async ({ newCompanyAdmin }) => {
  const { company, page } = await newCompanyAdmin();
  const screen = new CustomersScreen(page);
  await screen.goto();
  await page.getByRole('button', { name: t('customerImport.open'), exact: true }).click();
  const dialog = page.getByRole('dialog', { name: t('customerImport.title') });
  await dialog.getByRole('button', { name: t('customerImport.file'), exact: true }).setInputFiles({
    name: 'clientes.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(CSV, 'utf-8'),
  });
  await dialog.getByRole('button', { name: t('customerImport.check') }).click();

  const errors = dialog.getByTestId('import-errors');
  await expect(errors.getByRole('row')).toHaveCount(2);
  await expect(errors.getByRole('row').nth(1)).toContainText('3');
  await expect(errors.getByRole('row').nth(1)).toContainText('correo');
  await expect(dialog.getByTestId('import-summary')).toContainText('150');
  await expect(company.api.customerByDocument('1020304050')).rejects.toThrow();

  await dialog.getByRole('button', { name: t('customerImport.import', { count: 2 }) }).click();
  await expect(dialog.getByTestId('import-summary').getByRole('status')).toContainText(
    t('customerImport.done', { rows: 3, valid: 2, created: 2, updated: 0, skipped: 0, points: 150 }),
  );
  expect(await company.api.customerByDocument('1020304050')).toMatchObject({ name: 'Ana Import', points: 150 });
  expect(await company.api.customerByDocument('7777')).toMatchObject({ name: 'Carla Import', points: 0 });
  await expect(company.api.customerByDocument('555')).rejects.toThrow();

  await dialog.getByRole('button', { name: t('common.close') }).first().click();
  await expect(screen.list.row('Ana Import')).toContainText(t('customers.pointsValue', { points: '150' }));
});
