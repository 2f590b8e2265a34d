// Starts the product for the suite: a fresh database on the server at DATABASE_URL, the built
// `loyalty` binary migrating it and serving the built client on a free port, and the companies
// and users the specs need, created through the API. Builds nothing: `make test` (or the lead's
// `cargo build` and `npm run build`) has done that. The returned function tears it all down.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { CHROMIUM_PATH } from './chromium';
import { GRANTABLE_PATHS } from '../../client/src/lib/paths';
import { apiPaths, LoyaltyApi, type RolePermissions } from './api';
import { AUTH_DIR, CAPABILITY_ROUTES, CLIENT_COPY_DIR, REPO_DIR, writeRunState, type Capabilities, type CompanyDetails, type Login, type RunState, type SeededCompany } from './run';

const BINARY = process.env.LOYALTY_BIN ?? path.join(REPO_DIR, 'target', 'debug', 'loyalty');
const CLIENT_DIR = process.env.CLIENT_DIR ?? path.join(REPO_DIR, 'client', 'dist');
const SERVER_LOG = path.join(AUTH_DIR, 'server.log');

function fail(message: string): never {
  throw new Error(`e2e setup: ${message}`);
}

function checkPrerequisites(): string {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    fail(
      'DATABASE_URL is not set. Run the suite through `make test` (which starts a throwaway PostgreSQL), ' +
        'or point DATABASE_URL at a PostgreSQL server where this user may create databases, e.g. ' +
        'DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx playwright test',
    );
  }
  if (!existsSync(BINARY)) {
    fail(`the server binary ${BINARY} is missing: build it first with \`cargo build --bin loyalty\` (or \`make server\`)`);
  }
  if (!existsSync(path.join(CLIENT_DIR, 'index.html'))) {
    fail(`the built client ${CLIENT_DIR}/index.html is missing: build it first with \`cd client && npm run build\` (or \`make client\`)`);
  }
  if (!existsSync(CHROMIUM_PATH)) {
    fail(`Chromium is not at ${CHROMIUM_PATH}: install Debian's package (\`apt-get install -y chromium\`) or set CHROMIUM_PATH`);
  }
  return databaseUrl;
}

/** The same server and credentials, another database. */
function withDatabase(databaseUrl: string, database: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

function psql(databaseUrl: string, sql: string): void {
  const result = spawnSync('psql', [databaseUrl, '-v', 'ON_ERROR_STOP=1', '-qAtc', sql], { encoding: 'utf8' });
  if (result.error) fail(`psql could not run (${result.error.message}); install postgresql-client`);
  if (result.status !== 0) fail(`psql failed on \`${sql}\`: ${result.stderr.trim()}`);
}

function runLoyalty(args: string[], env: NodeJS.ProcessEnv): void {
  const result = spawnSync(BINARY, args, { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (result.status !== 0) {
    fail(`\`loyalty ${args[0]}\` failed (exit ${result.status}): ${(result.stderr || result.stdout).trim()}`);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * A private copy of the built client for this run, so a rebuild of client/dist while the suite
 * runs (someone else's `npm run build`) cannot pull the files from under the server.
 */
function snapshotClient(): string {
  const copy = CLIENT_COPY_DIR;
  cpSync(CLIENT_DIR, copy, { recursive: true });
  const index = readFileSync(path.join(copy, 'index.html'), 'utf8');
  const assets = [...index.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((match) => match[1]!);
  const absent = assets.filter((asset) => !existsSync(path.join(copy, asset)));
  if (absent.length > 0) {
    fail(`the built client in ${CLIENT_DIR} is incomplete (missing ${absent.join(', ')}): is a client build running? Build it again and retry`);
  }
  return copy;
}

function logTail(): string {
  try {
    return readFileSync(SERVER_LOG, 'utf8').split('\n').slice(-25).join('\n');
  } catch {
    return '(no server log)';
  }
}

async function waitUntilReady(baseURL: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) fail(`\`loyalty serve\` exited with ${server.exitCode}:\n${logTail()}`);
    try {
      const response = await fetch(`${baseURL}/readyz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  fail(`\`loyalty serve\` was not ready on ${baseURL}/readyz within 30 s:\n${logTail()}`);
}

function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => server.kill('SIGKILL'), 5_000);
    server.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    server.kill('SIGTERM');
  });
}

const secret = (bytes = 12) => randomBytes(bytes).toString('base64url');

interface CompanyPlan extends CompanyDetails {
  pos: string[];
  permissions: RolePermissions;
  /** Seeds the catalog (categories and products) used by the redeem screens. */
  catalog: boolean;
}

const PLANS: Record<keyof RunState['companies'], CompanyPlan> = {
  acme: {
    name: 'Tienda Acme',
    prefix: 'acme',
    taxId: '900123456-7',
    businessName: 'Acme Colombia S.A.S.',
    address: 'Calle 10 # 20-30, Bogotá',
    phone: '6015550100',
    pos: ['Caja Norte', 'Caja Sur'],
    permissions: { supervisor: [...GRANTABLE_PATHS], cajero: ['/main', '/accreditar', '/redimir', '/reportes'] },
    catalog: true,
  },
  limited: {
    name: 'Almacén Limitado',
    prefix: 'limitado',
    taxId: '900765432-1',
    businessName: 'Almacén Limitado Ltda.',
    address: 'Carrera 7 # 45-10, Medellín',
    phone: '6045550101',
    pos: ['Caja Única'],
    permissions: { supervisor: ['/reportes', '/settings/products'], cajero: ['/accreditar', '/redimir', '/settings/customers'] },
    catalog: false,
  },
  noperm: {
    name: 'Sin Permisos',
    prefix: 'sinpermisos',
    taxId: '900111222-3',
    businessName: 'Sin Permisos S.A.',
    address: 'Avenida 6 # 1-2, Cali',
    phone: '6025550102',
    pos: ['Caja Cali'],
    permissions: { supervisor: [], cajero: [] },
    catalog: false,
  },
};

async function seedCompany(baseURL: string, superApi: LoyaltyApi, plan: CompanyPlan): Promise<SeededCompany> {
  const { pos: posNames, permissions, catalog, ...details } = plan;
  const admin: Login = { username: `admin@${details.prefix}`, password: `adm-${secret()}` };
  const company = await superApi.createCompany({ ...details, adminPassword: admin.password });
  const api = await LoyaltyApi.login(baseURL, admin.username, admin.password);
  try {
    const pos = [];
    for (const name of posNames) pos.push(await api.createPos(name));
    const first = pos[0]!;
    const second = pos[1] ?? first;
    const supervisor: Login = { username: `sofia@${details.prefix}`, password: `sup-${secret()}` };
    const cajero: Login = { username: `carlos@${details.prefix}`, password: `caj-${secret()}` };
    const cajero2: Login = { username: `camila@${details.prefix}`, password: `caj-${secret()}` };
    await api.createUser({ username: 'sofia', password: supervisor.password, role: 'supervisor', posId: first.id });
    await api.createUser({ username: 'carlos', password: cajero.password, role: 'cajero', posId: first.id });
    await api.createUser({ username: 'camila', password: cajero2.password, role: 'cajero', posId: second.id });
    await api.saveSettings({ pointsPerPeso: 0.01, redemptionRate: 10, rolePermissions: permissions });

    const categories = [];
    const products = [];
    if (catalog) {
      const drinks = await api.createCategory('Bebidas', 'Cake');
      const home = await api.createCategory('Hogar', 'HomeModern');
      categories.push(drinks, home);
      products.push(
        await api.createProduct({ code: 'CAF-01', name: 'Café de Origen', description: 'Bolsa de 500 g', price: 15000, pointsValue: 500, categoryId: drinks.id }),
        await api.createProduct({ code: 'TER-01', name: 'Termo de Acero', description: 'Termo de 1 litro', price: 45000, pointsValue: 1500, categoryId: home.id }),
        await api.createProduct({ code: 'TAZ-01', name: 'Taza Esmaltada', description: 'Taza de 350 ml', price: 9000, pointsValue: 300, categoryId: home.id }),
        await api.createProduct({ code: 'RET-01', name: 'Producto Retirado', price: 1000, pointsValue: 100, categoryId: drinks.id, is_active: false }),
      );
    }
    return {
      id: company.id,
      ...details,
      admin,
      supervisor,
      cajero,
      cajero2,
      pos,
      categories,
      products,
      permissions,
    };
  } finally {
    await api.dispose();
  }
}

export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  const adminUrl = checkPrerequisites();
  const database = `loyalty_e2e_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const databaseUrl = withDatabase(adminUrl, database);

  rmSync(AUTH_DIR, { recursive: true, force: true });
  mkdirSync(AUTH_DIR, { recursive: true });

  psql(adminUrl, `create database ${database}`);
  let server: ChildProcess | undefined;
  const teardown = async () => {
    if (server) await stopServer(server);
    server = undefined;
    psql(adminUrl, `drop database if exists ${database} with (force)`);
  };
  // A crash or Ctrl-C of the runner must not leave the server running.
  const onExit = () => server?.kill('SIGKILL');
  process.once('exit', onExit);

  try {
    runLoyalty(['migrate'], { DATABASE_URL: databaseUrl });
    const superAdmin: Login = { username: 'e2e-root', password: `root-${secret()}` };
    runLoyalty(['create-super-admin', '--username', superAdmin.username], {
      DATABASE_URL: databaseUrl,
      SUPER_ADMIN_PASSWORD: superAdmin.password,
    });

    const clientDir = snapshotClient();
    const port = await freePort();
    const baseURL = `http://127.0.0.1:${port}`;
    const log = createWriteStream(SERVER_LOG);
    server = spawn(BINARY, ['serve'], {
      cwd: REPO_DIR,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        BIND_ADDR: `127.0.0.1:${port}`,
        JWT_SECRET: secret(32),
        CLIENT_DIR: clientDir,
        RUST_LOG: process.env.E2E_RUST_LOG ?? 'warn',
        // Webhooks to a receiver inside the suite (tests/settings/webhooks.spec.ts).
        WEBHOOK_ALLOW_PRIVATE: 'true',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout?.pipe(log);
    server.stderr?.pipe(log);
    await waitUntilReady(baseURL, server);

    const paths = await apiPaths(baseURL);
    const superApi = await LoyaltyApi.login(baseURL, superAdmin.username, superAdmin.password);
    let companies: RunState['companies'];
    try {
      companies = {
        acme: await seedCompany(baseURL, superApi, PLANS.acme),
        limited: await seedCompany(baseURL, superApi, PLANS.limited),
        noperm: await seedCompany(baseURL, superApi, PLANS.noperm),
      };
    } finally {
      await superApi.dispose();
    }

    writeRunState({
      baseURL,
      database,
      superAdmin,
      companies,
      capabilities: Object.fromEntries(
        Object.entries(CAPABILITY_ROUTES).map(([name, routes]) => [name, routes.every((route) => paths.has(route))]),
      ) as unknown as Capabilities,
    });
    // Workers read the base URL from the environment the runner hands them.
    process.env.E2E_BASE_URL = baseURL;
  } catch (error) {
    await teardown();
    throw error;
  }

  return async () => {
    process.off('exit', onExit);
    await teardown();
  };
}

