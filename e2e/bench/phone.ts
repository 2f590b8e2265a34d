// The phone measurement of `make bench` (docs/performance.md, "Phone"): Chromium on a phone-sized
// screen with its CPU slowed down and a slow network (a profile of PROFILES), logging in as a
// cashier on a fresh browser (first visit), again with the browser's cache from the first
// (repeat visit), and reloading the dashboard while signed in. Prints how long each step took
// and how many bytes of JavaScript and in all it downloaded; figures only, nothing is asserted.
//
//   node --import tsx bench/phone.ts --base http://127.0.0.1:8080 --user cajero@demo --password cajero123
//     [--profile lighthouse-mobile] [--runs 5] [--label 'server alone'] [--trust-spki HASH]
//
// Times are read inside the page (performance.now(), from the navigation's start), so the
// driver's polling adds nothing to them: a screen counts as usable once its control is in the
// page and the browser has painted a frame with it and run a task after that frame.

import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from '@playwright/test';
import { launchOptions } from '../support/chromium';

export interface NetworkProfile {
  description: string;
  /** Added to every request, as Chromium's DevTools network emulation does. */
  latencyMs: number;
  downloadKbps: number;
  uploadKbps: number;
  /** Chromium's CPU throttling rate: 4 runs the page four times slower than this machine. */
  cpuSlowdown: number;
}

/** Network and CPU profiles by name (`--profile`). */
export const PROFILES: Record<string, NetworkProfile> = {
  // Lighthouse's mobile settings (its `mobileSlow4G` throttling, with the Moto G Power screen).
  'lighthouse-mobile': {
    description: "Lighthouse's mobile: 150 ms, 1.6 Mbit/s down, 750 kbit/s up, CPU 4x slower",
    latencyMs: 150,
    downloadKbps: 1638.4,
    uploadKbps: 750,
    cpuSlowdown: 4,
  },
};

/** Lighthouse's mobile screen (Moto G Power), in the product's locale. */
const PHONE = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
  locale: 'es-CO',
  timezoneId: 'America/Bogota',
};

/** What marks a screen as usable, by CSS selector (the DOM the client renders). */
const MARKS = {
  login: 'form input[name="username"]:not([disabled])',
  ready: '[aria-labelledby="quick-accredit-title"] input:not([disabled])',
  chart: '.points-chart .recharts-surface',
};
type Mark = keyof typeof MARKS | 'submit';

interface Visit {
  /** Milliseconds from the navigation's start until the login screen was usable. */
  login?: number;
  /** Milliseconds from the login's submission (or, on a reload, the navigation's start). */
  ready: number;
  chart: number;
  jsBytes: number;
  allBytes: number;
  /** Requests that went to the server (revalidations included). */
  requests: number;
  /** Files taken from the browser's cache without asking the server. */
  cached: number;
  /** Content-Encoding of the JavaScript that came over the network. */
  encodings: Record<string, number>;
}

/**
 * Runs in the page before its own scripts: records when each mark's element is usable. Text
 * rather than a function, since tsx's transpiling would add helpers the page does not have.
 */
const RECORD_MARKS = `(() => {
  const selectors = ${JSON.stringify(MARKS)};
  const marks = (window.__phone = {});
  new MutationObserver(() => {
    for (const [name, selector] of Object.entries(selectors)) {
      if (name in marks || !document.querySelector(selector)) continue;
      marks[name] = 'seen';
      requestAnimationFrame(() => setTimeout(() => (marks[name] = performance.now())));
    }
  }).observe(document, { childList: true, subtree: true, attributes: true });
  document.addEventListener('submit', () => (marks.submit = performance.now()), true);
})();`;

async function waitForMarks(page: Page, names: Mark[]): Promise<Record<Mark, number>> {
  try {
    const handle = await page.waitForFunction(
      (wanted) => {
        const marks = (window as unknown as { __phone?: Record<string, unknown> }).__phone;
        return marks && wanted.every((name) => typeof marks[name] === 'number') ? marks : null;
      },
      names,
      { polling: 250, timeout: 120_000 },
    );
    return (await handle.jsonValue()) as Record<Mark, number>;
  } catch (error) {
    const seen = await page.evaluate(() => JSON.stringify((window as unknown as { __phone?: unknown }).__phone));
    await page.screenshot({ path: 'test-results/phone-timeout.png' }).catch(() => undefined);
    throw new Error(`waiting for ${names.join(', ')} at ${page.url()}: marks so far ${seen} (test-results/phone-timeout.png)`, { cause: error });
  }
}

interface ThrottledPage {
  page: Page;
  cdp: CDPSession;
}

/** A page of `context` with the profile's CPU and network throttling. */
async function throttledPage(context: BrowserContext, profile: NetworkProfile): Promise<ThrottledPage> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: profile.latencyMs,
    downloadThroughput: (profile.downloadKbps * 1024) / 8,
    uploadThroughput: (profile.uploadKbps * 1024) / 8,
  });
  return { page, cdp };
}

/**
 * Counts the Content-Encoding of the JavaScript that comes over the network (not from the
 * cache) until `stop()`.
 */
function countEncodings(cdp: CDPSession): { encodings: Record<string, number>; stop: () => void } {
  const encodings: Record<string, number> = {};
  const listener = ({ type, response }: { type?: string; response: { status: number; headers: Record<string, string>; fromDiskCache?: boolean; fromPrefetchCache?: boolean } }) => {
    if (type !== 'Script' || response.status !== 200 || response.fromDiskCache || response.fromPrefetchCache) return;
    const encoding = Object.entries(response.headers).find(([name]) => name.toLowerCase() === 'content-encoding')?.[1] ?? 'identity';
    encodings[encoding] = (encodings[encoding] ?? 0) + 1;
  };
  cdp.on('Network.responseReceived', listener);
  return { encodings, stop: () => cdp.off('Network.responseReceived', listener) };
}

/** Bytes and requests of the page's document so far, from Resource Timing. */
async function transfers(page: Page): Promise<Pick<Visit, 'jsBytes' | 'allBytes' | 'requests' | 'cached'>> {
  await page.waitForLoadState('networkidle', { timeout: 120_000 });
  return page.evaluate(() => {
    const entries = [
      ...performance.getEntriesByType('navigation'),
      ...performance.getEntriesByType('resource'),
    ] as PerformanceResourceTiming[];
    let jsBytes = 0;
    let allBytes = 0;
    let requests = 0;
    let cached = 0;
    for (const entry of entries) {
      if (entry.transferSize > 0) requests += 1;
      else cached += 1;
      allBytes += entry.transferSize;
      if (new URL(entry.name).pathname.endsWith('.js')) jsBytes += entry.transferSize;
    }
    return { jsBytes, allBytes, requests, cached };
  });
}

/** Opens the app signed out, waits for the login screen, logs in and waits for the dashboard. */
async function loginVisit({ page, cdp }: ThrottledPage, base: string, user: string, password: string): Promise<Visit> {
  const counter = countEncodings(cdp);
  await page.goto(base, { waitUntil: 'commit' });
  const { login } = await waitForMarks(page, ['login']);
  await page.locator('input[name="username"]').fill(user);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('form button[type="submit"]').click();
  const marks = await waitForMarks(page, ['submit', 'ready', 'chart']);
  const sent = await transfers(page);
  counter.stop();
  return { login, ready: marks.ready - marks.submit, chart: marks.chart - marks.submit, ...sent, encodings: counter.encodings };
}

async function reloadVisit({ page, cdp }: ThrottledPage): Promise<Visit> {
  const counter = countEncodings(cdp);
  await page.reload({ waitUntil: 'commit' });
  const marks = await waitForMarks(page, ['ready', 'chart']);
  const sent = await transfers(page);
  counter.stop();
  return { ready: marks.ready, chart: marks.chart, ...sent, encodings: counter.encodings };
}

interface Run {
  first: Visit;
  repeat: Visit;
  reload: Visit;
}

async function measureOnce(browser: Browser, base: string, profile: NetworkProfile, user: string, password: string, trusted: boolean): Promise<Run> {
  const context = await browser.newContext({ ...PHONE, ignoreHTTPSErrors: !trusted });
  try {
    await context.addInitScript(RECORD_MARKS);
    const firstPage = await throttledPage(context, profile);
    const first = await loginVisit(firstPage, base, user, password);
    // Signed out again (the session lives in localStorage), with the cache of the first visit.
    await firstPage.page.evaluate(() => localStorage.clear());
    await firstPage.page.close();
    const page = await throttledPage(context, profile);
    const repeat = await loginVisit(page, base, user, password);
    const reload = await reloadVisit(page);
    return { first, repeat, reload };
  } finally {
    await context.close();
  }
}

/** Measures `runs` times on a fresh browser context each and answers every run. */
export async function measurePhone(options: {
  base: string;
  profile: NetworkProfile;
  user: string;
  password: string;
  runs: number;
  /**
   * SPKI hash (base64 SHA-256) of a self-signed certificate to trust: Chromium caches nothing
   * from a site whose certificate it merely ignores, which would spoil the repeat visit.
   */
  trustSpki?: string;
  onRun?: (run: Run, index: number) => void;
}): Promise<Run[]> {
  const args = [...launchOptions.args, ...(options.trustSpki ? [`--ignore-certificate-errors-spki-list=${options.trustSpki}`] : [])];
  const browser = await chromium.launch({ ...launchOptions, args, headless: true });
  try {
    const runs: Run[] = [];
    for (let i = 0; i < options.runs; i += 1) {
      const run = await measureOnce(browser, options.base, options.profile, options.user, options.password, Boolean(options.trustSpki));
      options.onRun?.(run, i);
      runs.push(run);
    }
    return runs;
  } finally {
    await browser.close();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

function describe(visit: Visit, from: string): string {
  const login = visit.login === undefined ? '' : `login screen usable ${seconds(visit.login)}; `;
  const encodings = Object.entries(visit.encodings)
    .map(([name, count]) => `${name} ${count}`)
    .join(', ');
  return (
    `${login}${from} -> first screen usable ${seconds(visit.ready)}, chart ${seconds(visit.chart)}; ` +
    `JavaScript ${kB(visit.jsBytes)}, all ${kB(visit.allBytes)}; ${visit.requests} requests, ${visit.cached} from cache` +
    (encodings ? ` (JavaScript over the network: ${encodings})` : '')
  );
}

/** The median of each figure over the runs (each figure on its own). */
function medianVisit(visits: Visit[]): Visit {
  const of = (pick: (visit: Visit) => number) => median(visits.map(pick));
  return {
    login: visits[0]!.login === undefined ? undefined : of((v) => v.login!),
    ready: of((v) => v.ready),
    chart: of((v) => v.chart),
    jsBytes: of((v) => v.jsBytes),
    allBytes: of((v) => v.allBytes),
    requests: of((v) => v.requests),
    cached: of((v) => v.cached),
    encodings: visits[visits.length - 1]!.encodings,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      base: { type: 'string' },
      user: { type: 'string', default: 'cajero@demo' },
      password: { type: 'string', default: 'cajero123' },
      profile: { type: 'string', default: 'lighthouse-mobile' },
      runs: { type: 'string', default: '5' },
      label: { type: 'string', default: '' },
      'trust-spki': { type: 'string' },
    },
  });
  const profile = PROFILES[values.profile];
  if (!values.base || !profile) {
    console.error(`usage: bench/phone.ts --base URL [--user U --password P] [--profile ${Object.keys(PROFILES).join('|')}] [--runs N] [--label TEXT]`);
    process.exit(2);
  }
  const label = values.label || values.base;
  console.log(`${label}: ${profile.description}; ${values.runs} runs, each on a fresh browser`);
  const runs = await measurePhone({
    base: values.base,
    profile,
    user: values.user,
    password: values.password,
    runs: Number(values.runs),
    trustSpki: values['trust-spki'],
    onRun: (run, i) =>
      console.log(
        `  run ${i + 1}: first ${seconds(run.first.login!)} + ${seconds(run.first.ready)} (${kB(run.first.jsBytes)} JS); ` +
          `repeat ${seconds(run.repeat.login!)} + ${seconds(run.repeat.ready)} (${kB(run.repeat.jsBytes)} JS); ` +
          `reload ${seconds(run.reload.ready)} (${kB(run.reload.jsBytes)} JS)`,
      ),
  });
  const first = medianVisit(runs.map((run) => run.first));
  const repeat = medianVisit(runs.map((run) => run.repeat));
  const reload = medianVisit(runs.map((run) => run.reload));
  console.log(`  medians of ${runs.length} runs:`);
  console.log(`  first visit:  ${describe(first, 'login submitted')}`);
  console.log(`  repeat visit: ${describe(repeat, 'login submitted')}`);
  console.log(`  reload of the dashboard, signed in: ${describe(reload, 'navigation')}`);
  console.log(
    `RESULT first_login_ms=${first.login!.toFixed(0)} first_ready_ms=${first.ready.toFixed(0)} first_chart_ms=${first.chart.toFixed(0)} ` +
      `first_js_bytes=${first.jsBytes} repeat_ready_ms=${repeat.ready.toFixed(0)} repeat_js_bytes=${repeat.jsBytes} ` +
      `reload_ready_ms=${reload.ready.toFixed(0)} reload_js_bytes=${reload.jsBytes}`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
