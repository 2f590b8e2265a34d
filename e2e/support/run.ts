// What the global setup started and seeded, handed to the specs through a git-ignored file.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Category, PointOfSale, Product, RolePermissions } from './api';

export const E2E_DIR = path.resolve(__dirname, '..');
export const REPO_DIR = path.resolve(E2E_DIR, '..');
export const AUTH_DIR = path.join(E2E_DIR, '.auth');
/** The copy of the built client that the suite's server serves. */
export const CLIENT_COPY_DIR = path.join(AUTH_DIR, 'client');
const RUN_FILE = path.join(AUTH_DIR, 'run.json');

/** A login as typed on the login screen (username@prefix for company users). */
export interface Login {
  username: string;
  password: string;
}

/** A company's own details, as the super admin types them. */
export interface CompanyDetails {
  name: string;
  prefix: string;
  taxId: string;
  businessName: string;
  address: string;
  phone: string;
}

export interface SeededCompany extends CompanyDetails {
  id: number;
  admin: Login;
  supervisor: Login;
  cajero: Login;
  /** A second cashier (at another point of sale where the company has two). */
  cajero2?: Login;
  pos: PointOfSale[];
  categories: Category[];
  products: Product[];
  permissions: RolePermissions;
}

/** The companies every run seeds, by the permission sets they exercise. */
export interface SeededCompanies {
  /** Default permissions (supervisor: all seven; cajero: /main, /accreditar, /redimir, /reportes). */
  acme: SeededCompany;
  /** Narrow permissions: supervisor reports and products; cajero accredit, redeem and customers. */
  limited: SeededCompany;
  /** No permission at all for supervisor and cajero ('Acceso Denegado'). */
  noperm: SeededCompany;
}

export interface Capabilities {
  /** POST /api/customers/{id}/accredit and /redeem. */
  points: boolean;
  /** GET /api/transactions/search and POST /api/transactions/{id}/void. */
  reports: boolean;
  /** GET /api/stats/dashboard. */
  stats: boolean;
  /** POST /api/tasks/expire-points. */
  expiration: boolean;
}

/** The endpoints each capability needs. */
export const CAPABILITY_ROUTES: Record<keyof Capabilities, string[]> = {
  points: ['POST /api/customers/{id}/accredit', 'POST /api/customers/{id}/redeem'],
  reports: ['GET /api/transactions/search', 'POST /api/transactions/{id}/void'],
  stats: ['GET /api/stats/dashboard'],
  expiration: ['POST /api/tasks/expire-points'],
};

/** The reason a spec is skipped when the server lacks a capability. */
export function missing(capability: keyof Capabilities): string {
  return `${CAPABILITY_ROUTES[capability].join(', ')} not in /api/openapi.json yet (points API not merged)`;
}

export interface RunState {
  baseURL: string;
  database: string;
  superAdmin: Login;
  companies: SeededCompanies;
  /**
   * API areas the server offers in this run (read from /api/openapi.json). The points API is
   * built in parallel; specs that need an area it lacks are skipped with a message naming it.
   */
  capabilities: Capabilities;
}

export function writeRunState(state: RunState): void {
  mkdirSync(AUTH_DIR, { recursive: true });
  writeFileSync(RUN_FILE, `${JSON.stringify(state, null, 2)}\n`);
}

let cached: RunState | undefined;

/** The state of the current run; only valid once the global setup has run. */
export function runState(): RunState {
  if (!cached) {
    if (!existsSync(RUN_FILE)) {
      throw new Error(`${RUN_FILE} is missing: the global setup (support/global-setup.ts) did not run`);
    }
    cached = JSON.parse(readFileSync(RUN_FILE, 'utf8')) as RunState;
  }
  return cached;
}

/**
 * The seeded companies, read from the run's state when first used, so that specs can name them
 * at the top of the file and still be listed (`playwright test --list`) without a run.
 */
export const seeded: SeededCompanies = new Proxy({} as SeededCompanies, {
  get: (_target, key) => runState().companies[key as keyof SeededCompanies],
});

/** The sessions the setup project saves, one storage-state file each. */
export const ROLES = [
  'superAdmin',
  'impersonating',
  'admin',
  'supervisor',
  'cajero',
  'limitedSupervisor',
  'limitedCajero',
  'noPermSupervisor',
  'noPermCajero',
] as const;

export type StoredRole = (typeof ROLES)[number];

export function authFile(role: StoredRole): string {
  return path.join(AUTH_DIR, `${role}.json`);
}
