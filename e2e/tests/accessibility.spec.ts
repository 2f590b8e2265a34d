// The WCAG 2.1 AA audit (axe-core): every route of the route table, opened by each session that
// can open it, and the open dialogs (void, receipt, edit, delete, icon picker), in both themes and
// both languages. Any serious or critical violation fails, listed rule by rule with the elements
// it found. One page per visitor walks the four combinations, switching them with the header's
// controls, so a combination costs its audits and no reloads.

import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import type { LoyaltyApi } from '../support/api';
import { expect, test, type TestCompany } from '../support/fixtures';
import type { Locale } from '../support/i18n';
import { LoginPage } from '../support/pages/login';
import { ReceiptDialog, RedeemPanel, ReportsPage } from '../support/pages/operations';
import { CategoriesScreen, ProductsScreen } from '../support/pages/settings';
import { AppShell } from '../support/pages/shell';
import { COMPANY_PAGES, PAGES, visit, type PagePath } from '../support/routes';
import { missing, seeded, type Login, type StoredRole } from '../support/run';
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
 * The four combinations of theme and language, in the order one page walks them: each step
 * changes one preference through the header's own controls (no reload), and the last one leaves
 * both changed, so every pair is audited.
 */
const COMBINATIONS: Combination[] = [
  { theme: 'light', locale: 'es' },
  { theme: 'dark', locale: 'es' },
  { theme: 'dark', locale: 'en' },
  { theme: 'light', locale: 'en' },
];

interface Combination {
  theme: Theme;
  locale: Locale;
}

const named = ({ theme, locale }: Combination) => `${theme} theme, ${locale}`;

/** The time one audit may take on a loaded two-core machine (the test's budget grows with them). */
const AUDIT_BUDGET_MS = 20_000;

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

/**
 * The serious and critical violations on the page (or inside `scope`, a CSS selector), without
 * the known ones of `path`. Only violations are collected in full (`resultTypes`): axe then
 * keeps one example of each passing rule instead of every node, which is most of its time on a
 * long list.
 */
async function audit(page: Page, path: string, scope?: string): Promise<Finding[]> {
  const rules = Object.fromEntries(EXTRA_RULES.map((rule) => [rule, { enabled: true }]));
  let builder = new AxeBuilder({ page }).withTags(TAGS).options({ rules, resultTypes: ['violations'] });
  if (scope) builder = builder.include(scope);
  const results = await builder.analyze();
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

/** What the audits of one test found, by where they looked. */
class Findings {
  private readonly found: { where: string; findings: Finding[] }[] = [];

  add(where: string, findings: Finding[]): void {
    if (findings.length > 0) this.found.push({ where, findings });
  }

  report(): string {
    const lines: string[] = [];
    for (const { where, findings } of this.found) {
      for (const f of findings) {
        lines.push(`${where}: [${f.impact}] ${f.rule}: ${f.help} (${f.helpUrl})`);
        for (const node of f.nodes.slice(0, 8)) lines.push(`    ${node.target}\n      ${node.summary}`);
        if (f.nodes.length > 8) lines.push(`    ... and ${f.nodes.length - 8} more`);
      }
    }
    return lines.join('\n');
  }
}

/** Sets the theme and language the client reads when it starts (as the header's controls leave them). */
async function prefer(page: Page, { theme, locale }: Combination): Promise<void> {
  await page.addInitScript(
    ([theme, locale]) => {
      localStorage.setItem('theme', theme);
      localStorage.setItem('locale', locale);
    },
    [theme, locale] as const,
  );
}

/**
 * Switches the running app to `to` with the header's theme button and language menu, as a user
 * does (no reload), and returns the shell in the new language.
 */
async function switchTo(shell: AppShell, from: Combination, to: Combination): Promise<AppShell> {
  const { page } = shell;
  if (from.theme !== to.theme) {
    await shell.themeToggle().click();
    await expect(page.locator('html')).toHaveClass(new RegExp(`\\b${to.theme}\\b`));
  }
  if (from.locale !== to.locale) shell = await shell.chooseLanguage(to.locale);
  await expect(page.locator('html')).toHaveAttribute('lang', new RegExp(`^${to.locale}`));
  return shell;
}

/**
 * Walks the four combinations in one page (loaded once, at `first`'s path): in each, `body`
 * audits what it opens with the shell of that language. Fails at the end listing every
 * violation of every combination.
 */
async function inEveryCombination(page: Page, first: string, body: (shell: AppShell, findings: Findings, combination: Combination) => Promise<void>): Promise<void> {
  const findings = new Findings();
  await prefer(page, COMBINATIONS[0]!);
  await visit(page, first, { deepLink: true });
  let shell = new AppShell(page, COMBINATIONS[0]!.locale);
  let previous = COMBINATIONS[0]!;
  for (const combination of COMBINATIONS) {
    await test.step(named(combination), async () => {
      shell = await switchTo(shell, previous, combination);
      previous = combination;
      await body(shell, findings, combination);
    });
  }
  expect(findings.report(), 'accessibility violations').toBe('');
}

/** Opens each page in turn and audits it. */
async function auditPages(shell: AppShell, findings: Findings, pages: ReturnType<Visitor['pages']>, combination: Combination): Promise<void> {
  for (const { path, title } of pages) {
    await test.step(path, async () => {
      await visit(shell.page, path);
      await expect(title(shell)).toBeVisible();
      await settled(shell, path);
      findings.add(`${path} (${named(combination)})`, await audit(shell.page, path));
    });
  }
}

for (const visitor of VISITORS) {
  test(`${visitor.name}: no serious or critical violation on any page, theme or language`, async ({ page: anonymous, pageAs }) => {
    const pages = visitor.pages();
    test.setTimeout(30_000 + pages.length * COMBINATIONS.length * AUDIT_BUDGET_MS);
    const page = visitor.role ? await pageAs(visitor.role) : anonymous;
    await inEveryCombination(page, pages[0]!.path, (shell, findings, combination) => auditPages(shell, findings, pages, combination));
  });
}

// The seeded companies have no postings: a company of its own shows the report's rows of every
// kind (accreditation, redemption, the cancellation of a void, a voided row), the dashboard's
// figures and chart, and the dialogs.
test.describe('a company with postings', () => {
  test.skip(({ run }) => !run.capabilities.points || !run.capabilities.reports, `${missing('points')}; ${missing('reports')}`);

  /** A shop whose cajero accredited, redeemed twice and had one redemption voided by the supervisor. */
  async function postings(newCompany: () => Promise<TestCompany>, apiAs: (login: Login) => Promise<LoyaltyApi>) {
    const company = await newCompany();
    const shop = await seedShop(company);
    const cajero = await apiAs(shop.cajero);
    const customer = await newCustomer(company.api, { name: 'Ana Beltrán' });
    await cajero.accredit(customer.id, 2_000_000, 'FV-1');
    const voided = (await cajero.redeem(customer.id, { pointsToRedeem: 1000, description: 'Bono' })).newTransaction;
    const redemption = (await cajero.redeem(customer.id, { pointsToRedeem: 500, description: 'Bono' })).newTransaction;
    const supervisor = await apiAs(shop.supervisor);
    await supervisor.voidTransaction(voided.id);
    return { company, shop, cajero, supervisor, customer, voided, redemption };
  }

  test("no serious or critical violation on the report's rows and the dashboard, in any theme or language", async ({ newCompany, apiAs, pageWithSession }) => {
    test.setTimeout(60_000 + 2 * COMBINATIONS.length * AUDIT_BUDGET_MS);
    const { supervisor } = await postings(newCompany, apiAs);
    const page = await pageWithSession(supervisor.session!);
    await inEveryCombination(page, '/main', async (shell, findings, combination) => {
      await auditPages(shell, findings, own(['/main', '/reportes'])(), combination);
      // The audit saw the voided row and the cancellation that voided it.
      const rows = page.getByRole('region', { name: shell.t('reports.listTitle') });
      await expect(rows.getByText(shell.t('reports.voidedBadge'), { exact: true })).toHaveCount(1);
      await expect(rows.getByText(shell.t('reports.types.cancellation'), { exact: true })).toHaveCount(1);
    });
  });

  test('no serious or critical violation in the open dialogs, in any theme or language', async ({ newCompany, apiAs, pageWithSession }) => {
    test.setTimeout(90_000 + 6 * COMBINATIONS.length * AUDIT_BUDGET_MS);
    const { company, shop, cajero, customer, redemption } = await postings(newCompany, apiAs);
    const [coffee] = shop.products;
    // The till's page: void (with a supervisor's credentials) and the receipts.
    const till = await pageWithSession(cajero.session!);
    await till.addInitScript(() => {
      window.print = () => undefined;
    });
    const MODAL = '[aria-modal="true"]';

    await inEveryCombination(till, '/reportes', async (shell, findings, combination) => {
      const where = (dialog: string) => `${dialog} dialog (${named(combination)})`;
      const reports = new ReportsPage(till, shell.locale);

      await visit(till, '/reportes');
      await settled(shell, '/reportes');
      await reports.voidButton(redemption.id).click();
      await expect(reports.voidDialog()).toBeVisible();
      findings.add(where('void'), await audit(till, '/reportes', MODAL));
      await till.keyboard.press('Escape');
      await expect(reports.voidDialog()).toHaveCount(0);

      await reports.reprintButton(redemption.id).click();
      const reprint = new ReceiptDialog(till, shell.locale);
      await expect(reprint.receipt).toBeVisible();
      findings.add(where('receipt (reprint)'), await audit(till, '/reportes', MODAL));
      await reprint.close().click();
      await expect(reprint.root).toHaveCount(0);

      await visit(till, '/redimir');
      const redeem = new RedeemPanel(till.getByRole('main'), shell.locale);
      await redeem.lookup.find(customer.document);
      await expect(redeem.lookup.customerCard()).toBeVisible();
      await redeem.points().fill('100');
      await redeem.description().fill('Bono');
      await redeem.submit().click();
      const receipt = new ReceiptDialog(till, shell.locale);
      await expect(receipt.receipt).toBeVisible();
      findings.add(where('receipt (redemption)'), await audit(till, '/redimir', MODAL));
      await receipt.close().click();
      await expect(receipt.root).toHaveCount(0);
    });

    // The admin's page: a settings list's edit and delete dialogs, the categories' icon picker.
    const admin = await pageWithSession(company.api.session!);
    await inEveryCombination(admin, '/settings/products', async (shell, findings, combination) => {
      const where = (dialog: string) => `${dialog} dialog (${named(combination)})`;
      const products = new ProductsScreen(admin, shell.locale);
      await visit(admin, '/settings/products');
      await expect(products.heading()).toBeVisible();

      await products.edit(coffee!.name);
      const edit = products.editDialog();
      await expect(edit.root).toBeVisible();
      findings.add(where('edit'), await audit(admin, '/settings/products', MODAL));
      await edit.cancel().click();
      await expect(edit.root).toHaveCount(0);

      await products.delete(coffee!.name);
      const remove = products.deleteDialog();
      await expect(remove.confirm()).toBeVisible();
      findings.add(where('delete'), await audit(admin, '/settings/products', MODAL));
      await remove.cancel().click();
      await expect(remove.root).toHaveCount(0);

      const categories = new CategoriesScreen(admin, shell.locale);
      await visit(admin, '/settings/categories');
      await expect(categories.heading()).toBeVisible();
      await categories.addForm.getByRole('button', { name: shell.t('categories.chooseIcon') }).click();
      await expect(categories.iconPicker()).toBeVisible();
      findings.add(where('icon picker'), await audit(admin, '/settings/categories', MODAL));
      await admin.keyboard.press('Escape');
      await expect(categories.iconPicker()).toHaveCount(0);
    });
  });
});

/** A text of a report row: what it says, its contrast on what it is drawn on, and whether it is struck through. */
interface RowText {
  text: string;
  contrast: number;
  struck: boolean;
}

/**
 * Every text inside `row` as the reader sees it: its colour composited (with any opacity) over
 * the backgrounds behind it, the WCAG contrast ratio of the two, and whether a line-through of
 * it or of an ancestor crosses it.
 */
function rowTexts(row: Locator): Promise<RowText[]> {
  return row.evaluate((root) => {
    type Rgba = [number, number, number, number];
    const parse = (colour: string): Rgba => {
      const parts = /rgba?\(([^)]+)\)/.exec(colour)?.[1]?.split(/[\s,/]+/).filter(Boolean).map(Number) ?? [0, 0, 0, 0];
      return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, parts[3] ?? 1];
    };
    const over = (top: Rgba, bottom: Rgba): Rgba => {
      const alpha = top[3] + bottom[3] * (1 - top[3]);
      const mix = (i: number) => (top[i]! * top[3] + bottom[i]! * bottom[3] * (1 - top[3])) / alpha;
      return [mix(0), mix(1), mix(2), alpha];
    };
    const luminance = ([r, g, b]: Rgba) => {
      const channel = (v: number) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const texts: { text: string; contrast: number; struck: boolean }[] = [];
    for (const element of [root, ...Array.from(root.querySelectorAll('*'))]) {
      const own = Array.from(element.childNodes)
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent ?? '')
        .join('')
        .trim();
      if (own === '' || !(element instanceof HTMLElement) || element.offsetParent === null) continue;
      const layers: Rgba[] = [];
      let opacity = 1;
      let struck = false;
      let opaque = false;
      for (let node: Element | null = element; node; node = node.parentElement) {
        const style = getComputedStyle(node);
        opacity *= Number(style.opacity);
        if (style.textDecorationLine.includes('line-through') && root.contains(node)) struck = true;
        // The backgrounds behind the text, up to the first opaque one.
        const background = parse(style.backgroundColor);
        if (!opaque && background[3] > 0) {
          layers.push(background);
          opaque = background[3] === 1;
        }
      }
      let background: Rgba = [255, 255, 255, 1];
      for (const layer of layers.reverse()) background = over(layer, background);
      const colour = parse(getComputedStyle(element).color);
      const text = over([colour[0], colour[1], colour[2], colour[3] * opacity], background);
      const [light, dark] = [luminance(text), luminance(background)].sort((a, b) => b - a);
      texts.push({ text: own, contrast: Math.round(((light! + 0.05) / (dark! + 0.05)) * 100) / 100, struck });
    }
    return texts;
  });
}

// The spec asks for voided rows faded and struck through: they must still say "voided" in words
// (for whoever does not see the strike or the tint) and every text in them read at 4.5:1.
test.describe('a voided row', () => {
  test.skip(({ run }) => !run.capabilities.points || !run.capabilities.reports, `${missing('points')}; ${missing('reports')}`);

  test('says so in words and with a strike-through, and reads at 4.5:1, in both themes and languages', async ({ newCompany, apiAs, pageWithSession }) => {
    test.setTimeout(90_000);
    const company = await newCompany();
    const shop = await seedShop(company);
    const cajero = await apiAs(shop.cajero);
    const customer = await newCustomer(company.api, { name: 'Ana Beltrán' });
    await cajero.accredit(customer.id, 200_000, 'FV-1');
    const voided = (await cajero.redeem(customer.id, { pointsToRedeem: 1000, description: 'Bono' })).newTransaction;
    const kept = (await cajero.redeem(customer.id, { pointsToRedeem: 500, description: 'Bono' })).newTransaction;
    await (await apiAs(shop.supervisor)).voidTransaction(voided.id);
    const page = await pageWithSession(company.api.session!);

    await inEveryCombination(page, '/reportes', async (shell, _findings, combination) => {
      const reports = new ReportsPage(page, shell.locale);
      await visit(page, '/reportes');
      await settled(shell, '/reportes');
      const badge = shell.t('reports.voidedBadge');
      await expect(reports.row(voided.id).getByText(badge, { exact: true })).toBeVisible();
      await expect(reports.row(kept.id).getByText(badge, { exact: true })).toHaveCount(0);

      const texts = await rowTexts(reports.row(voided.id));
      const said = (text: string) => texts.find((line) => line.text === text || line.text.startsWith(text));
      expect(said(badge), `the badge (${named(combination)})`).toBeTruthy();
      // What was posted is struck through: the customer and the points.
      expect(said('Ana Beltrán')?.struck, `the customer struck through (${named(combination)})`).toBe(true);
      expect(texts.some((line) => line.struck && /-1[.,]000/.test(line.text)), `the points struck through (${named(combination)})`).toBe(true);
      const faint = texts.filter((line) => line.contrast < 4.5);
      expect(faint, `texts of the voided row below 4.5:1 (${named(combination)})`).toEqual([]);
      // The row that was not voided is not struck through.
      expect((await rowTexts(reports.row(kept.id))).filter((line) => line.struck)).toEqual([]);
    });
  });
});
