// The import through the screen, for `make bench` (docs/performance.md, "Import of customers"):
// an admin opens Settings → Customers → Import in Chromium, picks a CSV file, checks it and then
// imports it, as a person would. Prints how long the check and the import took from the click,
// the progress bar's values seen meanwhile, and the summary the screen showed; figures only.
//
//   node --import tsx bench/import-screen.ts --base http://127.0.0.1:8080 --user admin@imp1 \
//     --password PASSWORD --file customers.csv [--upload-mbps 20]
//
// The browser's uploads are held to --upload-mbps (Chrome DevTools Protocol network emulation):
// from a shop's connection a file takes seconds to go up, and the progress bar moves meanwhile;
// over loopback it would jump from 0 to 100 %.

import { parseArgs } from 'node:util';
import { chromium, type Locator, type Page } from '@playwright/test';
import { launchOptions } from '../support/chromium';
import { t } from '../support/i18n';

interface Step {
  seconds: number;
  /** The progress bar's values (0 to 100) seen while the step ran, in order, each once. */
  progress: number[];
  /** Whether the bar said the rows were being processed (the file fully sent). */
  processing: boolean;
  summary: string;
}

/** Clicks `button`, then samples the progress bar until `done` shows; `done`'s text. */
async function timedStep(page: Page, dialog: Locator, button: Locator, done: Locator): Promise<Step> {
  const bar = dialog.locator('progress.customer-import-progress');
  const progress: number[] = [];
  let processing = false;
  const started = Date.now();
  await button.click();
  for (;;) {
    if (await done.isVisible()) break;
    const value = await bar.getAttribute('value', { timeout: 100 }).catch(() => null);
    if (value !== null) {
      const percent = Math.round(Number(value) * 100);
      if (progress[progress.length - 1] !== percent) progress.push(percent);
      if (percent === 100 && (await dialog.getByText(t('customerImport.processing')).isVisible())) processing = true;
    }
    await page.waitForTimeout(50);
  }
  return { seconds: (Date.now() - started) / 1000, progress, processing, summary: (await done.innerText()).trim() };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      base: { type: 'string' },
      user: { type: 'string' },
      password: { type: 'string' },
      file: { type: 'string' },
      'upload-mbps': { type: 'string', default: '20' },
    },
  });
  if (!values.base || !values.user || !values.password || !values.file) {
    console.error('usage: bench/import-screen.ts --base URL --user U --password P --file CSV');
    process.exit(2);
  }
  const browser = await chromium.launch({ ...launchOptions, headless: true });
  try {
    const page = await browser.newPage({ locale: 'es-CO', timezoneId: 'America/Bogota' });
    const uploadMbps = Number(values['upload-mbps']);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: (uploadMbps * 1_000_000) / 8,
    });
    await page.goto(values.base);
    await page.locator('input[name="username"]').fill(values.user);
    await page.locator('input[name="password"]').fill(values.password);
    await page.locator('form button[type="submit"]').click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await page.goto(`${values.base}/settings/customers`);
    await page.getByRole('button', { name: t('customerImport.open'), exact: true }).click();
    const dialog = page.getByRole('dialog', { name: t('customerImport.title') });
    await dialog.locator('input[type="file"]').setInputFiles(values.file);
    const summary = dialog.getByTestId('import-summary').getByRole('status');

    const check = await timedStep(page, dialog, dialog.getByRole('button', { name: t('customerImport.check') }), summary);
    const importButton = dialog.locator('.btn-primary');
    const done = dialog.getByTestId('import-summary').getByRole('status').filter({ hasText: t('customerImport.done', DONE_PARAMS).slice(0, 12) });
    const run = await timedStep(page, dialog, importButton, done);
    console.log(`uploads held to ${uploadMbps} Mbit/s`);
    for (const [label, step] of [
      ['check', check],
      ['import', run],
    ] as const) {
      console.log(
        `${label}: ${step.seconds.toFixed(1)} s from the click; progress bar at ${sample(step.progress).join(', ')} % ` +
          `(${step.progress.length} values seen)` +
          `${step.processing ? ', then "processing"' : ''}; the screen said: ${step.summary}`,
      );
    }
    console.log(`RESULT check_s=${check.seconds.toFixed(1)} import_s=${run.seconds.toFixed(1)} progress_values=${check.progress.length + run.progress.length}`);
  } finally {
    await browser.close();
  }
}

/** About ten of `values`, the first and the last among them. */
function sample(values: number[]): number[] {
  const every = Math.max(1, Math.round(values.length / 10));
  return values.filter((_, i) => i % every === 0 || i === values.length - 1);
}

/** Any values: only the text before the first figure is used, to tell "finished" from "checked". */
const DONE_PARAMS = { rows: 0, valid: 0, created: 0, updated: 0, skipped: 0, points: 0 };

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
