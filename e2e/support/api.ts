// A typed client for the loyalty API, used to seed and inspect data around the browser steps.
// Every call goes through Playwright's request context; a non-OK answer throws with the server's
// message, so a failed seed step names itself.

import { request, type APIRequestContext, type APIResponse } from '@playwright/test';
import type { components } from '../../client/src/api/schema';
import type { GrantablePath } from '../../client/src/lib/paths';
import type { Category, Company, Customer, PointOfSale, Product, Settings } from '../../client/src/lib/types';

// The API's shapes are the server's own, generated from its OpenAPI document into the client's
// src/api/schema.d.ts (client/scripts/api-types.sh). The client's names for them
// (client/src/lib/types.ts) and its grantable paths (client/src/lib/paths.ts) serve here too;
// below are only the names the suite gives otherwise.
type Schemas = components['schemas'];

export type { Category, Company, Customer, PointOfSale, Product, Transaction } from '../../client/src/lib/types';

export type SessionUser = Schemas['UserView'];
export type Session = Schemas['SessionResponse'];
export type NewCompany = Schemas['CompanyInput'];
/** A company user (never a super admin). */
export type User = Schemas['User'];

/** The screens the suite grants each role (the API's `RolePermissions` lists plain strings). */
export type RolePermissions = Record<keyof Schemas['RolePermissions'], GrantablePath[]>;
export type TransactionPage = Schemas['TransactionPage'];
export type PointsResult = Schemas['Posting'];
export type PrivacyNotice = Schemas['PrivacyNotice'];
/** A customer's authorization at enrolment (`consent` of POST /api/customers). */
export type Consent = Schemas['ConsentInput'];

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly method: string,
    readonly path: string,
    /** The `message` of the server's answer. */
    readonly serverMessage: string,
  ) {
    super(`${method} ${path} answered ${status}: ${serverMessage}`);
  }
}

/** One API client, optionally carrying a session's bearer token. */
export class LoyaltyApi {
  private constructor(
    private readonly context: APIRequestContext,
    readonly session: Session | null,
  ) {}

  /** A client without a session (for /api/login and the public endpoints). */
  static async anonymous(baseURL: string): Promise<LoyaltyApi> {
    return new LoyaltyApi(await request.newContext({ baseURL }), null);
  }

  /** Logs in and returns a client carrying the token. */
  static async login(baseURL: string, username: string, password: string): Promise<LoyaltyApi> {
    const anonymous = await LoyaltyApi.anonymous(baseURL);
    try {
      const session = await anonymous.call<Session>('POST', '/api/login', { username, password });
      return LoyaltyApi.withSession(baseURL, session);
    } finally {
      await anonymous.dispose();
    }
  }

  static async withSession(baseURL: string, session: Session): Promise<LoyaltyApi> {
    const context = await request.newContext({
      baseURL,
      extraHTTPHeaders: { Authorization: `Bearer ${session.token}` },
    });
    return new LoyaltyApi(context, session);
  }

  async dispose(): Promise<void> {
    await this.context.dispose();
  }

  /** The raw answer, for specs that check statuses themselves. */
  async raw(method: string, path: string, body?: unknown): Promise<APIResponse> {
    return this.context.fetch(path, { method, ...(body === undefined ? {} : { data: body }) });
  }

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.raw(method, path, body);
    const text = await response.text();
    if (!response.ok()) {
      let message = text;
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? text;
      } catch {
        // not JSON: keep the text
      }
      throw new ApiError(response.status(), method, path, message);
    }
    if (text === '') return undefined as T;
    return JSON.parse(text) as T;
  }

  // --- platform (super admin) -------------------------------------------------------------

  companies(): Promise<Company[]> {
    return this.call('GET', '/api/super/companies');
  }

  createCompany(company: NewCompany): Promise<Company> {
    return this.call('POST', '/api/super/companies', company);
  }

  deleteCompany(id: number): Promise<{ message: string }> {
    return this.call('DELETE', `/api/super/companies/${id}`);
  }

  impersonate(companyId: number): Promise<Session> {
    return this.call('POST', '/api/super/impersonate', { companyId });
  }

  // --- company administration ------------------------------------------------------------

  settings(): Promise<Settings> {
    return this.call('GET', '/api/settings');
  }

  saveSettings(update: Partial<Settings>): Promise<Settings> {
    return this.call('POST', '/api/settings', update);
  }

  pointsOfSale(): Promise<PointOfSale[]> {
    return this.call('GET', '/api/pos');
  }

  createPos(name: string): Promise<PointOfSale> {
    return this.call('POST', '/api/pos', { name });
  }

  users(): Promise<User[]> {
    return this.call('GET', '/api/users');
  }

  createUser(user: { username: string; password: string; role: User['role']; posId?: number }): Promise<User> {
    return this.call('POST', '/api/users', user);
  }

  customers(): Promise<Customer[]> {
    return this.call('GET', '/api/customers');
  }

  customerByDocument(document: string): Promise<Customer> {
    return this.call('GET', `/api/customers/by-document/${encodeURIComponent(document)}`);
  }

  /**
   * Enrols a customer. Without a `consent`, the customer authorizes every purpose of the privacy
   * notice in force, at a store (docs/privacy.md).
   */
  async createCustomer(
    customer: Partial<Omit<Customer, 'id' | 'points' | 'is_active'>> & { name: string; document: string; consent?: Consent },
  ): Promise<Customer> {
    const consent = customer.consent ?? (await this.storeConsent());
    return this.call('POST', '/api/customers', { ...customer, consent });
  }

  /** The privacy notice in force. */
  currentNotice(): Promise<PrivacyNotice> {
    return this.call('GET', '/api/privacy-notices/current');
  }

  /** Publishes a new version of the privacy notice (admins). */
  publishNotice(notice: { body: string; purposes: { key: string; description: string }[] }): Promise<PrivacyNotice> {
    return this.call('POST', '/api/privacy-notices', notice);
  }

  /** A customer's authorizations: the current answer to each purpose and every answer recorded. */
  customerConsents(customerId: number): Promise<Schemas['CustomerConsents']> {
    return this.call('GET', `/api/customers/${customerId}/consents`);
  }

  /** A customer's consent at a store to every purpose of the notice in force. */
  async storeConsent(): Promise<Consent> {
    const notice = await this.currentNotice();
    return { noticeVersion: notice.version, purposes: notice.purposes.map((p) => p.key), channel: 'store' };
  }

  categories(): Promise<Category[]> {
    return this.call('GET', '/api/categories');
  }

  createCategory(name: string, icon: string): Promise<Category> {
    return this.call('POST', '/api/categories', { name, icon });
  }

  products(): Promise<Product[]> {
    return this.call('GET', '/api/products/all');
  }

  createProduct(product: {
    code: string;
    name: string;
    pointsValue: number;
    price: number;
    description?: string;
    categoryId?: number;
    imageUrl?: string;
    is_active?: boolean;
  }): Promise<Product> {
    return this.call('POST', '/api/products', product);
  }

  // --- points (docs/points.md) ------------------------------------------------------------

  /** Deletes a record (`/customers/7`, `/pos/3`): a record with history is only deactivated. */
  remove(path: string): Promise<{ message: string; deleted: 'hard' | 'soft' }> {
    return this.call('DELETE', path);
  }

  accredit(customerId: number, invoiceAmount: number, invoiceReference?: string): Promise<PointsResult> {
    return this.call('POST', `/api/customers/${customerId}/accredit`, { invoiceAmount, invoiceReference });
  }

  redeem(
    customerId: number,
    redemption: { pointsToRedeem: number; description?: string; invoiceReference?: string; productId?: number | null },
  ): Promise<PointsResult> {
    return this.call('POST', `/api/customers/${customerId}/redeem`, redemption);
  }

  /** The report's paged search (filters: text, type, posId, cashier, from, to). */
  searchTransactions(filters: Record<string, string | number> = {}): Promise<TransactionPage> {
    const query = new URLSearchParams({ page: '1', pageSize: '50', ...Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, String(v)])) });
    return this.call('GET', `/api/transactions/search?${query}`);
  }

  voidTransaction(id: number, supervisor?: { username: string; password: string }): Promise<{ message: string }> {
    return this.call(
      'POST',
      `/api/transactions/${id}/void`,
      supervisor ? { supervisorUsername: supervisor.username, supervisorPassword: supervisor.password } : {},
    );
  }

  dashboardStats(): Promise<{ totalCustomers: number; pointsInCirculation: number; transactionsLast30Days: number; pointsAccreditedLast30Days: number }> {
    return this.call('GET', '/api/stats/dashboard');
  }

  expirePoints(): Promise<{ message: string }> {
    return this.call('POST', '/api/tasks/expire-points');
  }
}

/** The API paths the suite relies on, from the server's OpenAPI document. */
export async function apiPaths(baseURL: string): Promise<Set<string>> {
  const api = await LoyaltyApi.anonymous(baseURL);
  try {
    const doc = await api.call<{ paths: Record<string, Record<string, unknown>> }>('GET', '/api/openapi.json');
    const out = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of Object.keys(item)) out.add(`${method.toUpperCase()} ${path}`);
    }
    return out;
  } finally {
    await api.dispose();
  }
}
