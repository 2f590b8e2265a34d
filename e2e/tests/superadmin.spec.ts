// The super-admin screen: create (with validation), search, page, edit, impersonate and exit,
// delete a company (docs/screens.md).

import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { as, expect, test, uniqueTag } from '../support/fixtures';
import { exactly, t } from '../support/i18n';
import { LoginPage } from '../support/pages/login';
import { AppShell } from '../support/pages/shell';
import { SuperAdminPage } from '../support/pages/superadmin';
import { expectPath } from '../support/routes';
import { ApiError, LoyaltyApi } from '../support/api';

test.use(as('superAdmin'));

test.describe('create a company', () => {
  test('validates the required fields, forces the prefix shape, then creates it', async ({ page, run, superApi }) => {
    const tag = uniqueTag();
    const name = `Droguería ${tag}`;
    const prefix = `drog${tag}`;
    const screen = new SuperAdminPage(page);
    const shell = new AppShell(page);
    await screen.goto();
    await screen.createButton().click();
    const dialog = screen.createDialog();

    await test.step('empty form: all required fields', async () => {
      await dialog.createButton().click();
      await expect(dialog.error()).toHaveText(t('users.errorAllFieldsRequired'));
    });

    await test.step('prefix typed with capitals, spaces and symbols keeps only lowercase letters and digits', async () => {
      await dialog.companyField('prefix').pressSequentially(`Drog ${tag.toUpperCase()}-!`);
      await expect(dialog.companyField('prefix')).toHaveValue(prefix);
    });

    await test.step('missing admin password is still refused', async () => {
      await dialog.companyField('name').fill(name);
      await dialog.companyField('taxId').fill('901234567-8');
      await dialog.createButton().click();
      await expect(dialog.error()).toHaveText(t('users.errorAllFieldsRequired'));
    });

    await test.step('complete form creates the company', async () => {
      await dialog.companyField('businessName').fill(`${name} S.A.S.`);
      await dialog.companyField('address').fill('Carrera 15 # 93-40, Bogotá');
      await dialog.companyField('phone').fill('6017654321');
      await dialog.companyField('adminPassword').fill('clave-admin-1');
      await dialog.createButton().click();
      await expect(dialog.root).toHaveCount(0);
      await expect(shell.toast(t('superAdmin.successCompanyCreated', { name, login: `admin@${prefix}` }))).toBeVisible();
    });

    await test.step('the list shows it, and its admin can log in as admin@prefix', async () => {
      await screen.find(tag);
      await expect(screen.list.rows()).toHaveCount(1);
      await expect(screen.row(name)).toContainText(`@${prefix}`);
      await expect(screen.row(name)).toContainText(t('superAdmin.adminLogin', { login: `admin@${prefix}` }));
      const admin = await LoyaltyApi.login(run.baseURL, `admin@${prefix}`, 'clave-admin-1');
      expect(admin.session?.user).toMatchObject({ role: 'admin', company: { name, prefix, businessName: `${name} S.A.S.` } });
      await admin.dispose();
    });

    const created = (await superApi.companies()).find((c) => c.prefix === prefix);
    if (created) await superApi.deleteCompany(created.id);
  });

  test("a prefix already in use shows the server's message in the form", async ({ page, newCompany, superApi }) => {
    const existing = await newCompany();
    const refusal = await superApi
      .createCompany({ name: 'Duplicada', prefix: existing.prefix, taxId: '900000001', adminPassword: 'clave-admin-1' })
      .then(() => null, (error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).status).toBe(409);
    const screen = new SuperAdminPage(page);
    await screen.goto();
    await screen.createButton().click();
    const dialog = screen.createDialog();
    await dialog.companyField('name').fill(`Copia ${existing.name}`);
    await dialog.companyField('prefix').fill(existing.prefix);
    await dialog.companyField('taxId').fill('900000001');
    await dialog.companyField('adminPassword').fill('clave-admin-1');
    await dialog.createButton().click();
    await expect(dialog.error()).toHaveText((refusal as ApiError).serverMessage);
    await dialog.cancel().click();
    await expect(dialog.root).toHaveCount(0);
  });

  test('cancel closes the form without creating anything', async ({ page, superApi }) => {
    const name = `No se crea ${uniqueTag()}`;
    const screen = new SuperAdminPage(page);
    await screen.goto();
    await screen.createButton().click();
    const dialog = screen.createDialog();
    await dialog.companyField('name').fill(name);
    await dialog.companyField('prefix').fill(`nocrear${uniqueTag()}`);
    await dialog.companyField('taxId').fill('900000002');
    await dialog.companyField('adminPassword').fill('clave-admin-1');
    await dialog.cancel().click();
    await expect(dialog.root).toHaveCount(0);
    await screen.find(name);
    await expect(screen.list.emptyText()).toHaveText(t('superAdmin.noResults'));
    expect((await superApi.companies()).some((c) => c.name === name)).toBe(false);
  });
});

test.describe('company list', () => {
  test('searches by name, tax id and prefix, case-insensitively', async ({ page, newCompany }) => {
    const tag = uniqueTag();
    const company = await newCompany({ name: `Ferretería ${tag.toUpperCase()}`, taxId: `${Date.now()}${Math.floor(Math.random() * 1000)}` });
    const screen = new SuperAdminPage(page);
    await screen.goto();

    for (const query of [tag, `FERRETERÍA ${tag}`, company.taxId, company.prefix]) {
      await test.step(`search '${query}'`, async () => {
        await screen.find(query);
        await expect(screen.list.rows()).toHaveCount(1);
        await expect(screen.row(company.name)).toBeVisible();
      });
    }
    await screen.find(`zz-no-such-company-${tag}`);
    await expect(screen.list.emptyText()).toHaveText(t('superAdmin.noResults'));
    await expect(screen.list.range()).toHaveText(screen.list.rangeText(0, 0, 0));
  });

  test('pages 5 at a time by default, with 10 and 25 per page, and resets to page 1 on a size change', async ({ page, newCompany }) => {
    const tag = uniqueTag();
    const names: string[] = [];
    for (let i = 1; i <= 7; i += 1) names.push((await newCompany({ name: `Panadería ${tag} ${String(i).padStart(2, '0')}` })).name);
    const screen = new SuperAdminPage(page);
    const list = screen.list;
    await screen.goto();
    await expect(list.perPage()).toHaveValue('5');
    await expect(list.perPage().getByRole('option')).toHaveText(['5', '10', '25']);

    await screen.find(tag);
    await expect(list.range()).toHaveText(list.rangeText(1, 5, 7));
    await expect(list.rows()).toHaveCount(5);
    await expect(list.rows().first()).toContainText(names[0]!);
    await expect(list.previous()).toBeDisabled();

    await list.next().click();
    await expect(list.range()).toHaveText(list.rangeText(6, 7, 7));
    await expect(list.rows()).toHaveCount(2);
    await expect(list.rows().last()).toContainText(names[6]!);
    await expect(list.next()).toBeDisabled();
    await expect(list.previous()).toBeEnabled();

    await list.perPage().selectOption('10');
    await expect(list.range()).toHaveText(list.rangeText(1, 7, 7));
    await expect(list.next()).toBeDisabled();

    await list.perPage().selectOption('5');
    await list.next().click();
    await expect(list.range()).toHaveText(list.rangeText(6, 7, 7));
    // Narrowing the search while on page 2 snaps back to the last page that exists.
    await screen.find(`${tag} 0`);
    await expect(list.range()).toHaveText(list.rangeText(6, 7, 7));
    await screen.find(`${tag} 07`);
    await expect(list.range()).toHaveText(list.rangeText(1, 1, 1));
    await expect(list.rows()).toHaveText([new RegExp(names[6]!)]);
  });
});

/** Opens the super-admin screen with the list searched down to `company` (by its prefix). */
async function openFound(page: Page, company: { prefix: string }) {
  const screen = new SuperAdminPage(page);
  await screen.goto();
  await screen.find(company.prefix);
  return { screen, shell: new AppShell(page) };
}

test('edits a company: the prefix is fixed, name and tax id are required', async ({ page, newCompany, superApi }) => {
  const company = await newCompany();
  const { screen, shell } = await openFound(page, company);
  await screen.list.editButton(company.name).click();
  const dialog = screen.editDialog();
  await expect(dialog.companyField('prefix')).toHaveValue(company.prefix);
  await expect(dialog.companyField('prefix')).toBeDisabled();
  await expect(dialog.companyField('adminPassword')).toHaveCount(0);

  await dialog.companyField('taxId').fill('');
  await dialog.update().click();
  await expect(dialog.error()).toHaveText(t('superAdmin.errorNameAndTaxIdRequired'));

  const renamed = `${company.name} Renovada`;
  await dialog.companyField('name').fill(renamed);
  await dialog.companyField('taxId').fill('900999888-1');
  await dialog.companyField('phone').fill('6041112233');
  await dialog.update().click();
  await expect(dialog.root).toHaveCount(0);
  await expect(shell.toast(t('superAdmin.successUpdated'))).toBeVisible();
  await expect(screen.row(renamed)).toContainText(t('superAdmin.taxIdValue', { taxId: '900999888-1' }));

  const stored = (await superApi.companies()).find((c) => c.id === company.id);
  expect(stored).toMatchObject({ name: renamed, taxId: '900999888-1', phone: '6041112233', prefix: company.prefix });
});

test('impersonates a company as its admin and exits back', async ({ page, newCompany }) => {
  const company = await newCompany();
  const { screen, shell } = await openFound(page, company);
  await screen.impersonateButton(company.name).click();

  await expectPath(page, '/main');
  await expect(shell.impersonationBanner()).toContainText(t('impersonation.banner', { company: company.name, username: 'admin' }));
  await expect(shell.userBadge()).toContainText(`admin@${company.prefix}`);
  await expect(shell.nav().getByRole('link')).toHaveText(
    (['nav.dashboard', 'nav.accredit', 'nav.redeem', 'nav.reports', 'nav.alerts', 'nav.dataRequests', 'nav.settings', 'nav.audit'] as const).map((key) => t(key)),
  );

  await shell.exitImpersonation().click();
  await expectPath(page, '/superadmin');
  await expect(screen.heading()).toBeVisible();
  await expect(shell.impersonationBanner()).toHaveCount(0);
  await expect(shell.userBadge()).toContainText(t('roles.super_admin'));
});

test('deletes a company after a warning that names it', async ({ page, run, newCompany, superApi }) => {
  const company = await newCompany();
  const { screen, shell } = await openFound(page, company);

  await screen.list.deleteButton(company.name).click();
  const confirm = screen.deleteDialog();
  await expect(confirm.root).toContainText(t('superAdmin.deleteWarning', { name: company.name }));
  await confirm.cancel().click();
  await expect(confirm.root).toHaveCount(0);
  await expect(screen.row(company.name)).toBeVisible();

  await screen.list.deleteButton(company.name).click();
  await confirm.confirm().click();
  await expect(shell.toast(t('superAdmin.successDeleted', { name: company.name }))).toBeVisible();
  await expect(screen.list.rows()).toHaveCount(0);
  await expect(screen.list.emptyText()).toHaveText(t('superAdmin.noResults'));

  expect((await superApi.companies()).some((c) => c.id === company.id)).toBe(false);
  const attempt = LoyaltyApi.login(run.baseURL, company.admin.username, company.admin.password);
  await expect(attempt).rejects.toBeInstanceOf(ApiError);
  const login = new LoginPage(page);
  await shell.logoutButton().click();
  await login.login(company.admin.username, company.admin.password);
  await expect(login.error()).toHaveText(t('login.error'));
});

type Column = 'name' | 'prefix' | 'schemaVersion' | 'customers' | 'transactions30d' | 'sizeBytes' | 'lastActivityAt' | 'computedAt';

/** The figures per company view of /superadmin (its locators, read in Spanish). */
class FiguresView {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByRole('button', { name: exactly(t('superAdmin.stats.title')) }).click();
  }

  table(): Locator {
    return this.page.getByRole('table');
  }

  search(): Locator {
    return this.page.getByRole('searchbox', { name: t('superAdmin.stats.searchLabel') });
  }

  refreshButton(): Locator {
    return this.page.getByRole('button', { name: t('superAdmin.stats.refresh') });
  }

  header(column: Column): Locator {
    return this.table().getByRole('columnheader', { name: t(`superAdmin.stats.columns.${column}`) });
  }

  row(name: string): Locator {
    return this.table().getByRole('row').filter({ has: this.page.getByRole('rowheader', { name: exactly(name) }) });
  }

  /** The cell of a column in a row, by the column's place in the header. */
  async cell(row: Locator, column: Column): Promise<Locator> {
    const headers = await this.table().getByRole('columnheader').allTextContents();
    const index = headers.findIndex((text) => text.trim() === t(`superAdmin.stats.columns.${column}`));
    return row.getByRole('cell').nth(index - 1);
  }

  /** The figures of a column down the shown page, as numbers. */
  async column(column: Column): Promise<number[]> {
    const headers = await this.table().getByRole('columnheader').allTextContents();
    const index = headers.findIndex((text) => text.trim() === t(`superAdmin.stats.columns.${column}`));
    const rows = await this.table().locator('tbody tr').all();
    const values = [];
    for (const row of rows) {
      const text = (await row.getByRole('cell').nth(index - 1).textContent()) ?? '';
      values.push(Number(text.replace(/\D/g, '')));
    }
    return values;
  }
}

test.describe('figures per company', () => {
  test("the operator sees a new company's customers after a refresh, and sorts by a column", async ({ page, newCompany }) => {
    const company = await newCompany();
    const shell = new AppShell(page);
    const figures = new FiguresView(page);
    await new SuperAdminPage(page).goto();
    await figures.open();
    await figures.search().fill(company.prefix);
    const row = figures.row(company.name);

    await test.step('provisioned: figures of an empty company', async () => {
      await expect(row).toBeVisible();
      await expect(row).toContainText(`@${company.prefix}`);
      await expect(await figures.cell(row, 'customers')).toHaveText('0');
      await expect(await figures.cell(row, 'lastActivityAt')).toHaveText(t('superAdmin.stats.noActivity'));
    });

    await test.step('two customers join: shown once the figures are computed again', async () => {
      await company.api.createCustomer({ name: 'Ana Cifras', document: `9${Date.now() % 1e8}1` });
      await company.api.createCustomer({ name: 'Beto Cifras', document: `9${Date.now() % 1e8}2` });
      await figures.refreshButton().click();
      await expect(shell.toast(/^Cifras calculadas para \d+ empresas\.$/)).toBeVisible();
      await expect(await figures.cell(row, 'customers')).toHaveText('2');
      await expect(page.getByTestId('stats-computed-at')).toContainText('Cifras calculadas el');
      // Counts only: no customer's name is shown.
      await expect(page.getByText('Ana Cifras')).toHaveCount(0);
    });

    await test.step('sorted by customers: largest first, then smallest first', async () => {
      await figures.search().fill('');
      await figures.header('customers').getByRole('button').click();
      await expect(figures.header('customers')).toHaveAttribute('aria-sort', 'descending');
      await expect(figures.header('name')).not.toHaveAttribute('aria-sort');
      await expect.poll(async () => {
        const values = await figures.column('customers');
        return values.every((value, i) => i === 0 || (values[i - 1] ?? 0) >= value);
      }).toBe(true);
      await figures.header('customers').getByRole('button').click();
      await expect(figures.header('customers')).toHaveAttribute('aria-sort', 'ascending');
    });

    await test.step('the view passes the accessibility audit', async () => {
      const results = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .withRules(['label-content-name-mismatch', 'landmark-unique'])
        .analyze();
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    });
  });
});
