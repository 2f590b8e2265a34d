// /auditoria: the admin reads who changed what, worded, filtered and linked to the record
// (docs/screens.md).

import { expect, test } from '../../support/fixtures';
import { t } from '../../support/i18n';
import { AuditScreen } from '../../support/pages/audit';

test('an admin reads rule and user changes worded, filters them by action and user, and follows a link to the user', async ({
  newCompanyAdmin,
}) => {
  const { company, page } = await newCompanyAdmin();
  await company.api.saveSettings({ pointsPerPeso: 0.02 });
  const pos = await company.api.createPos('Centro');
  await company.api.createUser({ username: 'ana', password: 'clave-segura-1', role: 'cajero', posId: pos.id });

  const screen = new AuditScreen(page);
  await screen.goto();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('audit.title'));
  await expect(page.getByRole('navigation', { name: t('nav.main') }).first().getByRole('link', { name: t('nav.audit') })).toBeVisible();

  const rules = screen.entry(t('audit.actions.settingsUpdate'));
  await expect(rules).toHaveCount(1);
  await expect(rules).toContainText(`${t('fields.pointsPerPeso')}: 0 → 0.02`);
  await expect(rules).toContainText(t('audit.by', { actor: 'admin' }));
  const created = screen.entry(t('audit.actions.userCreate'));
  await expect(created).toContainText(`${t('fields.role')}: ${t('roles.cajero')}`);
  await expect(created).toContainText(`${t('fields.posId')}: Centro`);

  await test.step('filters by action, then by a user who did nothing', async () => {
    await screen.actionFilter().selectOption({ label: t('audit.actions.userCreate') });
    await expect(screen.list.rows()).toHaveCount(1);
    await expect(screen.entry(t('audit.actions.userCreate'))).toHaveCount(1);
    await screen.list.search().fill('nadie');
    await expect(screen.list.emptyText()).toHaveText(t('audit.noResults'));
    await screen.clearFilters().click();
    await expect(screen.entry(t('audit.actions.settingsUpdate'))).toHaveCount(1);
  });

  await test.step('the user links to the users list', async () => {
    await created.getByRole('link').click();
    await expect(page).toHaveURL((url) => url.pathname === '/settings/users');
  });
});

test('an admin sees what a super admin did while impersonating, as that super admin', async ({ newCompanyAdmin, superApi }) => {
  const { company, page } = await newCompanyAdmin();
  await superApi.impersonate(company.id);

  const screen = new AuditScreen(page);
  await screen.goto();
  const entered = screen.entry(t('audit.actions.impersonationStart'));
  await expect(entered).toHaveCount(1);
  await expect(entered).toContainText(/como súper administrador \S+/);
});
