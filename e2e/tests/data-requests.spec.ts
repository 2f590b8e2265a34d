// /solicitudes-datos: a holder's consulta or reclamo filed, extended and answered, with its due
// date in business days; the customer shows "reclamo en trámite" at the till while a reclamo is
// open (docs/privacy.md).

import type { DataRequest } from '../../client/src/lib/types';
import { expect, test } from '../support/fixtures';
import { t } from '../support/i18n';

test('files a reclamo, marks the customer at the till, extends it once and answers it', async ({ newCompanyAdmin }) => {
  test.setTimeout(120_000);
  const { company, page } = await newCompanyAdmin();
  await company.api.createCustomer({ name: 'Ana Ruiz', document: '1020304050' });

  await page.goto('/solicitudes-datos');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('dataRequests.title'), { timeout: 30_000 });
  await expect(page.getByText(t('dataRequests.empty'))).toBeVisible();

  await page.getByRole('button', { name: t('dataRequests.file.open') }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(t('fields.document')).fill('1020304050');
  await dialog.getByLabel(t('dataRequests.kind')).selectOption('reclamo');
  await dialog.getByLabel(t('fields.subject')).fill('Corregir mi correo');
  await dialog.getByLabel(t('fields.details')).fill('El correo registrado no es el mío.');
  await dialog.getByRole('button', { name: t('dataRequests.file.submit') }).click();
  await expect(dialog).toHaveCount(0);

  const [filed] = (await company.api.call<{ items: DataRequest[] }>('GET', '/api/data-requests')).items;
  expect(filed).toMatchObject({ kind: 'reclamo', status: 'open', customerName: 'Ana Ruiz', daysLeft: 15 });
  const row = page.getByTestId(`data-request-${filed!.id}`);
  await expect(row).toContainText('Ana Ruiz');
  await expect(row.getByTestId('request-clock')).toContainText(t('dataRequests.daysLeft', { count: 15 }));

  await test.step('the till shows the claim on the customer card', async () => {
    await page.goto('/accreditar');
    await page.getByLabel(t('dashboard.lookup.document')).first().fill('1020304050');
    await page.getByLabel(t('dashboard.lookup.document')).first().press('Enter');
    await expect(page.getByTestId('customer-card').getByTestId('claim-in-progress')).toHaveText(t('dataRequests.claimInProgress'));
  });

  await page.goto('/solicitudes-datos');
  await row.getByRole('button', { name: t('dataRequests.actions.buttons.extend') }).click();
  await dialog.getByLabel(t('fields.reason')).fill('Hay que revisar tres sistemas.');
  await dialog.getByRole('button', { name: t('dataRequests.actions.buttons.extend') }).click();
  await expect(dialog).toHaveCount(0);
  await expect(row).toContainText(t('dataRequests.extended'));
  await expect(row.getByTestId('request-clock')).toContainText(t('dataRequests.daysLeft', { count: 23 }));
  await expect(row.getByRole('button', { name: t('dataRequests.actions.buttons.extend') })).toHaveCount(0);

  await row.getByRole('button', { name: t('dataRequests.actions.buttons.answer') }).click();
  await dialog.getByLabel(t('fields.answer')).fill('Correo corregido.');
  await dialog.getByRole('button', { name: t('dataRequests.actions.buttons.answer') }).click();
  await expect(row).toContainText(t('dataRequests.statuses.answered'));
  expect((await company.api.customerByDocument('1020304050')).claimInProgress).toBe(false);
});
