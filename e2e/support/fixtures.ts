// The suite's `test`: Playwright's, plus the run's state, API clients, throwaway companies seeded
// through the API (and deleted after the test), and pages logged in as any session.

import { randomBytes } from 'node:crypto';
import { test as base, expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { LoyaltyApi, type Company, type Session } from './api';
import { formatNumber, LOCALES, translator, type Locale, type Translate } from './i18n';
import { authFile, runState, type Login, type RunState, type StoredRole } from './run';

/** A company made for one test: its admin can log in and seed more through `api`. */
export interface TestCompany extends Company {
  admin: Login;
  /** The company admin's API client. */
  api: LoyaltyApi;
}

export interface Preferences {
  locale?: Locale;
  theme?: 'light' | 'dark';
}

interface Fixtures {
  /** The super admin's API client. */
  superApi: LoyaltyApi;
  /** Creates a company through the API; every company it made is deleted after the test. */
  newCompany: (options?: { name?: string; taxId?: string; businessName?: string; logoUrl?: string }) => Promise<TestCompany>;
  /** A new page logged in with the given session (from the API), in a context of its own. */
  pageWithSession: (session: Session, preferences?: Preferences) => Promise<Page>;
  /** A new page in a context holding the setup project's saved session of a role. */
  pageAs: (role: StoredRole) => Promise<Page>;
  /** The API client of a login (disposed after the test). */
  apiAs: (login: Login) => Promise<LoyaltyApi>;
  /** A fresh company (see `newCompany`) and a page logged in as its admin. */
  newCompanyAdmin: (preferences?: Preferences) => Promise<{ company: TestCompany; page: Page }>;
  pageOptions: ContextOptions;
}

interface WorkerFixtures {
  run: RunState;
}

/** A short random tag that keeps a test's records apart from every other test's. */
export function uniqueTag(length = 6): string {
  return randomBytes(8).toString('hex').replace(/[^a-z]/g, '').padEnd(length, 'x').slice(0, length);
}

/** Storage state holding a session exactly as the client persists it. */
export function sessionStorageState(baseURL: string, session: Session, preferences: Preferences = {}) {
  const localStorage = [
    { name: 'authToken', value: session.token },
    { name: 'loggedInUser', value: JSON.stringify(session.user) },
    { name: 'theme', value: preferences.theme ?? 'light' },
    { name: 'locale', value: preferences.locale ?? 'es' },
  ];
  return { cookies: [], origins: [{ origin: baseURL, localStorage }] };
}

type ContextOptions = NonNullable<Parameters<Browser['newContext']>[0]>;

async function newPage(browser: Browser, contexts: BrowserContext[], options: ContextOptions) {
  const context = await browser.newContext(options);
  contexts.push(context);
  return context.newPage();
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  run: [async ({}, use) => use(runState()), { scope: 'worker' }],

  superApi: async ({ run }, use) => {
    const api = await LoyaltyApi.login(run.baseURL, run.superAdmin.username, run.superAdmin.password);
    await use(api);
    await api.dispose();
  },

  newCompany: async ({ run, superApi }, use) => {
    const made: TestCompany[] = [];
    await use(async (options = {}) => {
      const prefix = `t${uniqueTag(10)}`;
      const admin: Login = { username: `admin@${prefix}`, password: `adm-${uniqueTag(12)}` };
      const company = await superApi.createCompany({
        name: options.name ?? `Prueba ${prefix}`,
        prefix,
        taxId: options.taxId ?? `800${Math.floor(Math.random() * 1e6)}`,
        businessName: options.businessName ?? `Prueba ${prefix} S.A.S.`,
        address: 'Calle 1 # 2-3',
        phone: '3001234567',
        adminPassword: admin.password,
        ...(options.logoUrl ? { logoUrl: options.logoUrl } : {}),
      });
      const api = await LoyaltyApi.login(run.baseURL, admin.username, admin.password);
      const testCompany: TestCompany = { ...company, admin, api };
      made.push(testCompany);
      return testCompany;
    });
    for (const company of made) {
      await company.api.dispose();
      // The test may have deleted it already.
      const remaining = await superApi.companies();
      if (remaining.some((c) => c.id === company.id)) await superApi.deleteCompany(company.id);
    }
  },

  pageWithSession: async ({ browser, run, pageOptions }, use) => {
    const contexts: BrowserContext[] = [];
    await use((session, preferences) =>
      newPage(browser, contexts, { ...pageOptions, storageState: sessionStorageState(run.baseURL, session, preferences) }),
    );
    for (const context of contexts) await context.close();
  },

  pageAs: async ({ browser, pageOptions }, use) => {
    const contexts: BrowserContext[] = [];
    await use((role) => newPage(browser, contexts, { ...pageOptions, storageState: authFile(role) }));
    for (const context of contexts) await context.close();
  },

  // The options the default context gets, for the extra contexts above.
  pageOptions: async ({ run, viewport, locale, timezoneId, isMobile, hasTouch, deviceScaleFactor, acceptDownloads }, use) => {
    await use({
      baseURL: run.baseURL,
      viewport,
      locale,
      timezoneId,
      isMobile,
      hasTouch,
      deviceScaleFactor,
      acceptDownloads,
    });
  },

  newCompanyAdmin: async ({ newCompany, pageWithSession }, use) => {
    await use(async (preferences) => {
      const company = await newCompany();
      const page = await pageWithSession(company.api.session!, preferences);
      return { company, page };
    });
  },

  apiAs: async ({ run }, use) => {
    const clients: LoyaltyApi[] = [];
    await use(async (login) => {
      const api = await LoyaltyApi.login(run.baseURL, login.username, login.password);
      clients.push(api);
      return api;
    });
    for (const api of clients) await api.dispose();
  },
});

export { expect };

/** `test.use` value for a describe block running as a role saved by the setup project. */
export function as(role: StoredRole) {
  return { storageState: authFile(role) };
}

/** What a test written once per language gets: the language, its texts and its number format. */
export interface InLanguage {
  locale: Locale;
  tr: Translate;
  number: (value: number) => string;
}

/** Declares the tests of `body` once per language, each group named 'in Spanish' or 'in English'. */
export function inEachLanguage(body: (language: InLanguage) => void): void {
  for (const locale of LOCALES) {
    test.describe(`in ${locale === 'es' ? 'Spanish' : 'English'}`, () => {
      body({ locale, tr: translator(locale), number: (value) => formatNumber(value, locale) });
    });
  }
}
