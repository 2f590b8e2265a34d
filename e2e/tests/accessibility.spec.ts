// The WCAG 2.1 AA audit (axe-core): every route of the route table, opened by each session that
// can open it, in both themes and both languages. Any serious or critical violation fails, listed
// rule by rule with the elements it found.

import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { t, type Locale } from '../support/i18n';
import { LoginPage } from '../support/pages/login';
import { AppShell } from '../support/pages/shell';
import { COMPANY_PAGES, PAGES, visit, type PagePath } from '../support/routes';
import { missing, seeded, type StoredRole } from '../support/run';
import { newCustomer, seedShop } from '../support/seed';

type Theme = 'light' | 'dark';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Rules outside those tags that the audit adds, failing at any impact: "label and name disagree"
 * (WCAG 2.5.3, experimental in axe-core, off by default) and landmarks that share a name (two
 * search forms on one screen must say which is which).
 */
const EXTRA_RULES = ['label-content-name-mismatch', 'landmark-unique'];

/**
 * Violations known and not yet fixed, each with its route: they are left out of the failure (and
 * listed here, so that none is skipped silently). Empty: every route passes.
 */
const KNOWN_VIOLATIONS: { rule: string; path: string; why: string }[] = [];

/** A session and the pages it audits (what the route table lets it open; `title` per page). */
interface Visitor {
  name: string;
  role: StoredRole | null;
  pages: () => { path: string; title: (shell: AppShell) => ReturnType<AppShell['heading']> }[];
}

const own = (paths: readonly PagePath[]) => () => paths.map((path) => ({ path, title: (shell: AppShell) => shell.heading(shell.t(PAGES[path])) }));
const denied = (path: string) => () => [{ path, title: (shell: AppShell) => shell.accessDenied() }];

const VISITORS: Visitor[] = [
  { name: 'nobody logged in', role: null, pages: () => [{ path: '/login', title: (shell) => new LoginPage(shell.page, shell.locale).heading() }] },
  { name: 'super admin', role: 'superAdmin', pages: own(['/superadmin']) },
  { name: 'super admin impersonating', role: 'impersonating', pages: own(COMPANY_PAGES) },
  { name: 'admin', role: 'admin', pages: own(COMPANY_PAGES) },
  { name: 'supervisor', role: 'supervisor', pages: () => own(seeded.acme.permissions.supervisor as PagePath[])() },
  { name: 'cajero', role: 'cajero', pages: () => own(seeded.acme.permissions.cajero as PagePath[])() },
  { name: 'supervisor with narrow permissions', role: 'limitedSupervisor', pages: () => own(seeded.limited.permissions.supervisor as PagePath[])() },
  { name: 'cajero with narrow permissions', role: 'limitedCajero', pages: () => own(seeded.limited.permissions.cajero as PagePath[])() },
  { name: 'supervisor without permissions', role: 'noPermSupervisor', pages: denied('/main') },
  { name: 'cajero without permissions', role: 'noPermCajero', pages: denied('/main') },
];

/**
 * Both themes in Spanish (the default language) and the light theme in English: the themes share
 * every element and differ only by the tokens, the languages only by the texts; the fourth
 * combination (dark, English) added a minute and a half to a single worker's run and nothing the
 * other three do not see.
 */
const COMBINATIONS: [Theme, Locale][] = [
  ['light', 'es'],
  ['dark', 'es'],
  ['light', 'en'],
];

/** Waits for what loads after the title: the loading overlay, the dashboard's figures, the report's rows. */
async function settled(shell: AppShell, path: string): Promise<void> {
  await expect(shell.loadingOverlay()).toHaveCount(0);
  if (path === '/main' && (await shell.accessDenied().count()) === 0) {
    await expect(shell.page.getByRole('list', { name: shell.t('dashboard.kpisLabel') })).toHaveAttribute('aria-busy', 'false');
  }
  if (path === '/reportes') await expect(shell.page.getByRole('region', { name: shell.t('reports.listTitle') })).toBeVisible();
}

interface Finding {
  rule: string;
  impact: string;
  help: string;
  helpUrl: string;
  nodes: { target: string; summary: string }[];
}

/** The serious and critical violations on the page, without the known ones of `path`. */
async function audit(page: Page, path: string): Promise<Finding[]> {
  const rules = Object.fromEntries(EXTRA_RULES.map((rule) => [rule, { enabled: true }]));
  const results = await new AxeBuilder({ page }).withTags(TAGS).options({ rules }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || EXTRA_RULES.includes(v.id))
    .filter((v) => !KNOWN_VIOLATIONS.some((known) => known.rule === v.id && known.path === path))
    .map((v) => ({
      rule: v.id,
      impact: v.impact ?? '',
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((node) => ({ target: node.target.join(' '), summary: (node.failureSummary ?? '').replace(/\s+/g, ' ').trim() })),
    }));
}

function report(found: { path: string; findings: Finding[] }[]): string {
  const lines: string[] = [];
  for (const { path, findings } of found) {
    for (const f of findings) {
      lines.push(`${path}: [${f.impact}] ${f.rule}: ${f.help} (${f.helpUrl})`);
      for (const node of f.nodes.slice(0, 8)) lines.push(`    ${node.target}\n      ${node.summary}`);
      if (f.nodes.length > 8) lines.push(`    ... and ${f.nodes.length - 8} more`);
    }
  }
  return lines.join('\n');
}

/** Sets the theme and language the client reads when it starts (as the header's controls leave them). */
async function prefer(page: Page, theme: Theme, locale: Locale): Promise<void> {
  await page.addInitScript(
    ([theme, locale]) => {
      localStorage.setItem('theme', theme);
      localStorage.setItem('locale', locale);
    },
    [theme, locale] as const,
  );
}

/** Opens each page in turn, audits it, and fails listing every violation of every page. */
async function auditPages(page: Page, pages: ReturnType<Visitor['pages']>, theme: Theme, locale: Locale): Promise<void> {
  const shell = new AppShell(page, locale);
  const found: { path: string; findings: Finding[] }[] = [];
  for (const { path, title } of pages) {
    await test.step(path, async () => {
      await visit(page, path);
      await expect(title(shell)).toBeVisible();
      await expect(page.locator('html')).toHaveClass(new RegExp(`\\b${theme}\\b`));
      await settled(shell, path);
      const findings = await audit(page, path);
      if (findings.length > 0) found.push({ path, findings });
    });
  }
  expect(report(found), `accessibility violations (${theme} theme, ${locale})`).toBe('');
}

for (const visitor of VISITORS) {
  test.describe(visitor.name, () => {
    for (const [theme, locale] of COMBINATIONS) {
      test(`no serious or critical violation, ${theme} theme, ${locale}`, async ({ page: anonymous, pageAs }) => {
        const page = visitor.role ? await pageAs(visitor.role) : anonymous;
        await prefer(page, theme, locale);
        await auditPages(page, visitor.pages(), theme, locale);
      });
    }
  });
}

// The seeded companies have no postings: a company of its own shows the report's rows of every
// kind (accreditation, redemption, the cancellation of a void, a voided row) and the dashboard's
// figures and chart.
test.describe('a company with postings', () => {
  test.skip(({ run }) => !run.capabilities.points || !run.capabilities.reports, `${missing('points')}; ${missing('reports')}`);

  for (const [theme, locale] of COMBINATIONS) {
    test(`no serious or critical violation on the report's rows and the dashboard, ${theme} theme, ${locale}`, async ({ newCompany, apiAs, pageWithSession }) => {
      const company = await newCompany();
      const shop = await seedShop(company);
      const cajero = await apiAs(shop.cajero);
      const customer = await newCustomer(company.api, { name: 'Ana Beltrán' });
      await cajero.accredit(customer.id, 200_000, 'FV-1');
      const voided = (await cajero.redeem(customer.id, { pointsToRedeem: 1000, description: 'Bono' })).newTransaction;
      await cajero.redeem(customer.id, { pointsToRedeem: 500, description: 'Bono' });
      const supervisor = await apiAs(shop.supervisor);
      await supervisor.voidTransaction(voided.id);
      const page = await pageWithSession(supervisor.session!, { theme, locale });
      await auditPages(page, own(['/main', '/reportes'])(), theme, locale);
      // The audit saw the voided row and the cancellation that voided it.
      const rows = page.getByRole('region', { name: t('reports.listTitle', {}, locale) });
      await expect(rows.getByText(t('reports.voidedBadge', {}, locale), { exact: true })).toHaveCount(1);
      await expect(rows.getByText(t('reports.types.cancellation', {}, locale), { exact: true })).toHaveCount(1);
    });
  }
});
