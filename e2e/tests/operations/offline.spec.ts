// The offline till (issue #26; docs/operations.md, "Service worker" and "Offline till"): the app
// opens with no network from its service worker, accreditations made offline wait on the device
// with their Idempotency-Key and are posted exactly once when the connection is back, even when
// answers are lost on the way and the page is reloaded in the middle of sending them.

import type { Page } from '@playwright/test';
import { as, expect, test } from '../../support/fixtures';
import { t } from '../../support/i18n';
import { AccreditPanel, RedeemPanel } from '../../support/pages/operations';
import { AppShell } from '../../support/pages/shell';
import { missing, seeded } from '../../support/run';
import { newCustomer } from '../../support/seed';

test.skip(({ run }) => !run.capabilities.points, missing('points'));

test.use(as('cajero'));
// The rest of the suite blocks the service worker (playwright.config.ts); these tests are about it.
test.use({ serviceWorkers: 'allow' });

/** Waits until the service worker has kept the app's files and controls the next load. */
async function serviceWorkerReady(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
}

const ACCREDITATIONS = 20;

test('twenty accreditations made offline are posted exactly once, through lost answers and a reload', async ({ page, context, apiAs }) => {
  test.setTimeout(240_000);
  const admin = await apiAs(seeded.acme.admin);
  const customer = await newCustomer(admin, { name: 'Rosa Offline' });
  const tag = Date.now().toString(36);
  const references = Array.from({ length: ACCREDITATIONS }, (_, i) => `OFF-${tag}-${i + 1}`);

  await page.goto('/accreditar');
  await serviceWorkerReady(page);
  const accredit = new AccreditPanel(page.getByRole('main'));
  // Served once online: the device keeps the customer for the offline lookup.
  await accredit.lookup.find(customer.document);
  await expect(accredit.lookup.customerCard()).toBeVisible();

  await context.setOffline(true);
  const banner = page.getByTestId('offline-banner');
  await expect(banner).toContainText(t('offline.banner'));
  for (const [i, reference] of references.entries()) {
    await accredit.lookup.find(customer.document);
    await expect(page.getByTestId('customer-from-device')).toHaveText(t('offline.customerFromDevice'));
    await accredit.amount().fill(String(1000 * (i + 1)));
    await accredit.reference().fill(reference);
    await accredit.submit().click();
    await expect(page.getByTestId('pending-receipt')).toContainText(t('offline.receiptReference', { reference }));
    await expect(page.getByTestId('offline-pending')).toHaveText(t('offline.pending', { count: i + 1 }));
  }

  // The shell reloads with no network, still signed in, and the entries are still there.
  await page.reload();
  await expect(banner).toContainText(t('offline.banner'));
  await expect(page.getByTestId('offline-pending')).toHaveText(t('offline.pending', { count: ACCREDITATIONS }));
  expect((await admin.searchTransactions({ customerId: customer.id })).total).toBe(0);

  // Back online, one request in three has its answer lost after the server acted on it.
  let requests = 0;
  let lost = 0;
  await context.route('**/api/customers/*/accredit', async (route) => {
    requests += 1;
    if (requests % 3 === 0) {
      await route.fetch();
      lost += 1;
      await route.abort('connectionreset');
      return;
    }
    await route.continue();
  });
  await context.setOffline(false);

  // A reload in the middle of the replay.
  await expect
    .poll(async () => (await admin.searchTransactions({ customerId: customer.id })).total, { timeout: 60_000 })
    .toBeGreaterThanOrEqual(5);
  await page.reload();

  await expect
    .poll(async () => (await admin.searchTransactions({ customerId: customer.id })).total, { timeout: 150_000 })
    .toBe(ACCREDITATIONS);
  // Nothing is left on the device, and nothing more arrives.
  await expect(banner).toHaveCount(0);
  await page.waitForTimeout(4000);
  const ledger = await admin.searchTransactions({ customerId: customer.id });
  expect(ledger.total).toBe(ACCREDITATIONS);
  const posted = ledger.items.map((row) => row.invoiceReference).sort();
  expect(posted).toEqual([...references].sort());
  expect(new Set(ledger.items.map((row) => row.id)).size).toBe(ACCREDITATIONS);
  expect(lost).toBeGreaterThan(0);
  // The balance is the ledger's sum.
  const balance = ledger.items.reduce((sum, row) => sum + Number(row.points), 0);
  expect((await admin.customerByDocument(customer.document)).points).toBe(balance);
});

test('a redemption is refused offline with the reason, and the shell opens signed in after a reload with no network', async ({ page, context, apiAs }) => {
  test.setTimeout(90_000);
  const admin = await apiAs(seeded.acme.admin);
  const customer = await newCustomer(admin, { name: 'Tomás Sin Red', points: 500, earnedBy: await apiAs(seeded.acme.supervisor) });
  await page.goto('/redimir');
  await serviceWorkerReady(page);
  const redeem = new RedeemPanel(page.getByRole('main'));
  await redeem.lookup.find(customer.document);
  await expect(redeem.lookup.balance()).toHaveText('500');

  await context.setOffline(true);
  await redeem.points().fill('100');
  await redeem.submit().click();
  await expect(redeem.error()).toHaveText(t('offline.redeemRefused'));
  expect((await admin.customerByDocument(customer.document)).points).toBe(500);

  await page.reload();
  await expect(page.getByTestId('offline-banner')).toContainText(t('offline.banner'));
  await expect(page.getByRole('heading', { level: 1, name: t('redeem.title') })).toBeVisible();
  // Still signed in: the header's logout is there.
  await expect(page.getByRole('button', { name: t('header.logout') }).first()).toBeVisible();
});

test('the language switches from the header with no network: the device keeps both languages', async ({ page, context }) => {
  const es = new AppShell(page, 'es');
  await es.open('/accreditar', 'accredit.title');
  await serviceWorkerReady(page);
  // Loaded again from the service worker, which now answers the page's requests.
  await page.reload();
  await expect(es.heading(t('accredit.title'))).toBeVisible();

  await context.setOffline(true);
  await expect(page.getByTestId('offline-banner')).toContainText(t('offline.banner'));
  // The English texts were never loaded by this page: they come from the worker's cache.
  const en = await es.chooseLanguage('en');
  await expect(en.heading(t('accredit.title', {}, 'en'))).toBeVisible();
  await expect(page.getByTestId('offline-banner')).toContainText(t('offline.banner', {}, 'en'));
  await context.setOffline(false);
});
