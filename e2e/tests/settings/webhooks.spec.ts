// /settings/webhooks: an admin adds an endpoint, sees its secret once, and sees a delivery in the
// log after an accreditation (docs/webhooks.md). The receiver runs in the test; the suite's
// server allows private addresses (support/global-setup.ts).

import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '../../support/fixtures';
import { t } from '../../support/i18n';
import { WebhooksScreen } from '../../support/pages/webhooks';

interface Received {
  id: string;
  body: { type: string; data: { id: number } };
}

/** A receiver answering 200 to every POST, keeping what came. */
async function startReceiver(): Promise<{ url: string; received: Received[]; close: () => void }> {
  const received: Received[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ id: String(request.headers['webhook-id']), body: JSON.parse(body) as Received['body'] });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, received, close: () => server.close() };
}

test('adds an endpoint, shows its secret once, and logs the delivery of an accreditation', async ({ newCompanyAdmin }) => {
  const receiver = await startReceiver();
  try {
    const { company, page } = await newCompanyAdmin();
    const screen = new WebhooksScreen(page);
    await screen.goto();
    await expect(screen.heading()).toBeVisible();
    await expect(page.getByText(t('settings.webhooks.empty'))).toBeVisible();

    await screen.add(receiver.url, ['points.accredited']);
    await expect(screen.secret()).toHaveText(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    await screen.closeSecret().click();
    await expect(screen.secret()).toHaveCount(0);
    await expect(page.getByText(receiver.url)).toBeVisible();
    await page.reload();
    await expect(page.getByText(receiver.url)).toBeVisible();
    await expect(page.getByText(/whsec_/)).toHaveCount(0);

    await company.api.saveSettings({ pointsPerPeso: 0.01, redemptionRate: 1 });
    const customer = await company.api.createCustomer({ name: 'Ana Webhook', document: '52123456' });
    const accredited = await company.api.accredit(customer.id, 50_000);
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(1);
    const [message] = receiver.received;
    expect(message!.body.type).toBe('points.accredited');
    expect(message!.body.data.id).toBe(accredited.newTransaction.id);

    await screen.deliveriesButton().click();
    const log = screen.deliveries(receiver.url);
    await expect(async () => {
      await screen.refresh().click();
      await expect(log.getByRole('row', { name: new RegExp(message!.id) })).toContainText(t('settings.webhooks.statuses.delivered'), { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
  } finally {
    receiver.close();
  }
});
