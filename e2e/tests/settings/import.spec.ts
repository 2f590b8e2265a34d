// /settings/customers → Import: a dry run of a small CSV lists its bad row, then the import adds
// the valid customers with their opening points (docs/import.md).

import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../../support/fixtures';
import { t } from '../../support/i18n';
import { CustomersScreen } from '../../support/pages/settings';

const CSV = [
  'documento;nombre;correo;puntos;consentimiento',
  '1.020.304.050;Ana Import;ana@example.com;150;store',
  '555;Beto Import;no-es-correo;10;web',
  '7777;Carla Import;;0;import',
].join('\n');

/** Opens the import dialog from the customers screen and picks `csv` as its file. */
async function openWithFile(screen: CustomersScreen, csv: string): Promise<Locator> {
  await screen.goto();
  await screen.page.getByRole('button', { name: t('customerImport.open'), exact: true }).click();
  const dialog = screen.page.getByRole('dialog', { name: t('customerImport.title') });
  await dialog.getByRole('button', { name: t('customerImport.file'), exact: true }).setInputFiles({
    name: 'clientes.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv, 'utf-8'),
  });
  return dialog;
}

test('checks a CSV, shows its bad row, then imports the valid customers with their opening points', async ({ newCompanyAdmin }) => {
  const { company, page } = await newCompanyAdmin();
  const screen = new CustomersScreen(page);
  const dialog = await openWithFile(screen, CSV);
  await dialog.getByRole('button', { name: t('customerImport.check') }).click();

  const errors = dialog.getByTestId('import-errors');
  await expect(errors.getByRole('row')).toHaveCount(2);
  await expect(errors.getByRole('row').nth(1)).toContainText('3');
  await expect(errors.getByRole('row').nth(1)).toContainText('correo');
  await expect(dialog.getByTestId('import-summary')).toContainText('150');
  await expect(company.api.customerByDocument('1020304050')).rejects.toThrow();

  await dialog.getByRole('button', { name: t('customerImport.import', { count: 2 }) }).click();
  await expect(dialog.getByTestId('import-summary').getByRole('status')).toContainText(
    t('customerImport.done', { rows: 3, valid: 2, created: 2, updated: 0, skipped: 0, points: 150 }),
  );
  expect(await company.api.customerByDocument('1020304050')).toMatchObject({ name: 'Ana Import', points: 150 });
  expect(await company.api.customerByDocument('7777')).toMatchObject({ name: 'Carla Import', points: 0 });
  await expect(company.api.customerByDocument('555')).rejects.toThrow();

  await dialog.getByRole('button', { name: t('common.close') }).first().click();
  await expect(screen.list.row('Ana Import')).toContainText(t('customers.pointsValue', { points: '150' }));
});

test('shows the progress bar moving while a large file goes up, then imports every row', async ({ newCompanyAdmin }) => {
  test.slow();
  const { company, page } = await newCompanyAdmin();
  const rows = 20000;
  const lines = ['documento;nombre;correo;puntos;consentimiento'];
  for (let i = 0; i < rows; i++) lines.push(`${5000000 + i};Cliente ${i} Grande;cliente${i}@example.com;${i % 100};store`);
  // A shop's uplink, not loopback: the 1 MB file takes some two seconds to go up.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 500_000 });

  const dialog = await openWithFile(new CustomersScreen(page), lines.join('\n'));
  const shown = await recordProgress(page);
  await dialog.getByRole('button', { name: t('customerImport.check') }).click();
  await expect(dialog.getByTestId('import-summary').getByRole('status')).toContainText(t('customerImport.checked', CHECKED).slice(0, 9));
  const bar = dialog.getByRole('progressbar', { name: t('customerImport.progress') });
  await expect(bar).toBeHidden();
  // Somewhere between the start and the end, with the share sent written beside it.
  const midway = (await shown()).find(({ value }) => value > 0.2 && value < 1);
  expect(midway?.text, 'the bar seen between 20 % and 100 %, with its share written').toMatch(/\d+\s?%/);

  await dialog.getByRole('button', { name: t('customerImport.import', { count: 20000 }) }).click();
  await expect(bar).toBeVisible();
  // The check's summary holds "20.000" too: the import's end is its own words, waited for.
  const summary = dialog.getByTestId('import-summary').getByRole('status');
  await expect(summary).toContainText(t('customerImport.done', CHECKED).slice(0, 12), { timeout: 60_000 });
  await expect(summary).toContainText('20.000');
  expect(await company.api.customerByDocument('5019999')).toMatchObject({ name: 'Cliente 19999 Grande', points: 99 });
});

/**
 * Starts writing down, in the page, every value the import's progress bar takes with the words
 * beside it, and gives a reader of that list. Sampling the bar from the test instead would miss
 * a two-second upload on a busy machine.
 */
async function recordProgress(page: Page): Promise<() => Promise<{ value: number; text: string }[]>> {
  await page.evaluate((label) => {
    const shown: { value: number; text: string }[] = [];
    (window as unknown as { progressShown: typeof shown }).progressShown = shown;
    new MutationObserver(() => {
      const bar = document.querySelector(`progress[aria-label="${label}"]`);
      const value = Number(bar?.getAttribute('value'));
      if (bar && value !== shown.at(-1)?.value) shown.push({ value, text: bar.parentElement?.textContent ?? '' });
    }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  }, t('customerImport.progress'));
  return () => page.evaluate(() => (window as unknown as { progressShown: { value: number; text: string }[] }).progressShown);
}

/** Any figures: only the words before the first one are compared. */
const CHECKED = { rows: 0, valid: 0, created: 0, updated: 0, skipped: 0, points: 0 };
