// /settings/api-keys: an admin makes a point of sale's key (shown once), the point of sale's
// system accredits with it through the POS API, the report shows the key's name as the cashier,
// and a revoked key is refused at once (docs/integration.md).

import { expect, test } from '../../support/fixtures';
import { t } from '../../support/i18n';
import { ApiKeysScreen } from '../../support/pages/apiKeys';
import { ReportsPage } from '../../support/pages/operations';
import { newCustomer } from '../../support/seed';

test('an admin makes a key, a POS system accredits with it, and once revoked it is refused', async ({ newCompanyAdmin, request, run }) => {
  const { company, page } = await newCompanyAdmin();
  await company.api.createPos('Caja Norte');
  await company.api.saveSettings({ pointsPerPeso: 0.01, redemptionRate: 10 });
  const customer = await newCustomer(company.api, { name: 'Ana Beltrán' });

  const screen = new ApiKeysScreen(page);
  await screen.goto();
  await expect(screen.heading()).toBeVisible();
  await expect(screen.list()).toContainText(t('apiKeys.empty'));
  const key = await screen.create('Software Norte', 'Caja Norte');
  expect(key).toMatch(new RegExp(`^lk_${company.prefix}_[A-Za-z0-9]{43}$`));
  await expect(screen.newKeyDialog()).toContainText(t('apiKeys.shownOnce'));
  await screen.newKeyDialog().getByRole('button', { name: t('apiKeys.done') }).click();
  await expect(screen.newKeyDialog()).toBeHidden();
  await expect(screen.row('Software Norte')).toContainText('Caja Norte');
  await expect(screen.row('Software Norte')).toContainText(t('apiKeys.neverUsed'));
  await expect(page.getByText(key)).toHaveCount(0);

  const accredit = (idempotencyKey: string) =>
    request.post(`${run.baseURL}/api/pos-api/v1/accredit`, {
      headers: { Authorization: `Bearer ${key}`, 'Idempotency-Key': idempotencyKey },
      data: { document: customer.document, invoiceAmount: 25_000, invoiceReference: `FV-${idempotencyKey}` },
    });
  const answer = await accredit('e2e-1');
  expect(answer.status()).toBe(200);
  const posted = (await answer.json()) as { transactionId: number; points: number; balance: number };
  expect(posted.points).toBe(250);
  expect(posted.balance).toBe(250);

  const reports = new ReportsPage(page);
  await reports.goto();
  await expect(reports.row(posted.transactionId)).toContainText('Software Norte');
  await expect(reports.row(posted.transactionId)).toContainText('Caja Norte');
  await expect(reports.row(posted.transactionId)).toContainText('Ana Beltrán');

  await screen.goto();
  await expect(screen.row('Software Norte')).not.toContainText(t('apiKeys.neverUsed'));
  await screen.revokeButton('Software Norte').click();
  await expect(screen.revokeDialog()).toContainText('Software Norte');
  await screen.revokeDialog().getByRole('button', { name: t('apiKeys.revoke'), exact: true }).click();
  await expect(screen.toast(t('apiKeys.successRevoked', { name: 'Software Norte' }))).toBeVisible();
  await expect(screen.list()).toContainText(t('apiKeys.empty'));

  const refused = await accredit('e2e-2');
  expect(refused.status()).toBe(401);
  expect(((await refused.json()) as { code: string }).code).toBe('apiKey.invalid');
});
