import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { loggedInState, makeSettings, makeUser } from '../../../test/fixtures';
import { mockApi, tenantRoutes, type MockHandler } from '../../../test/mockApi';
import { renderApp } from '../../../test/renderWithProviders';
import type { Webhook, WebhookDelivery } from '../../../lib/types';

// The pages load lazily; load them once up front so no test pays for it on a busy machine.
beforeAll(async () => {
  await import('..');
}, 60_000);

const settings = makeSettings();
const admin = makeUser('admin');

function makeWebhook(overrides: Partial<Webhook> = {}): Webhook {
  return {
    id: 1,
    url: 'https://hooks.example.com/loyalty',
    events: ['points.accredited'],
    expiringDays: 7,
    consecutiveFailures: 0,
    disabledAt: null,
    createdAt: '2026-03-09T20:00:00Z',
    createdBy: 'admin',
    ...overrides,
  };
}

const delivery: WebhookDelivery = {
  id: 5,
  messageId: 'msg_0123456789abcdef',
  eventType: 'points.accredited',
  status: 'delivered',
  attempts: 1,
  createdAt: '2026-03-09T20:00:00Z',
  nextAttemptAt: null,
  lastAttemptAt: '2026-03-09T20:00:01Z',
  lastStatus: 200,
  lastError: null,
  payload: { type: 'points.accredited', timestamp: '2026-03-09T20:00:00Z', data: {} },
};

function routes(webhooks: Webhook[], extra: Record<string, MockHandler> = {}): Record<string, MockHandler> {
  return {
    ...tenantRoutes(settings),
    'GET /api/webhooks': { body: webhooks },
    'GET /api/webhooks/1/deliveries': { body: [delivery] },
    ...extra,
  };
}

describe('webhooks screen', () => {
  it('adds an endpoint and shows its secret once', async () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const { requests } = mockApi(
      routes([], {
        'POST /api/webhooks': { status: 201, body: { id: 1, secret, endpoint: makeWebhook() } },
      }),
    );
    renderApp('/settings/webhooks', { preloadedState: loggedInState(admin) });
    await screen.findByText('Aún no hay webhooks.', {}, { timeout: 10_000 });
    fireEvent.click(screen.getByRole('button', { name: 'Agregar webhook' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/Dirección/), { target: { value: ' https://hooks.example.com/loyalty ' } });
    fireEvent.click(within(dialog).getByLabelText(/Cliente creado/));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Agregar' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'POST' && r.path === '/api/webhooks')).toBe(true));
    expect(requests.find((r) => r.method === 'POST')!.body).toEqual({
      url: 'https://hooks.example.com/loyalty',
      events: ['points.accredited', 'customer.created'],
    });
    expect(await screen.findByText(secret)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Ya lo copié' }));
    await waitFor(() => expect(screen.queryByText(secret)).not.toBeInTheDocument());
  }, 30_000);

  it('shows the server’s refusal of an address in the dialog', async () => {
    mockApi(
      routes([], {
        'POST /api/webhooks': {
          status: 400,
          body: { code: 'webhook.urlPrivate', message: 'La dirección del webhook no puede ser privada, local ni de loopback.' },
        },
      }),
    );
    renderApp('/settings/webhooks', { preloadedState: loggedInState(admin, { locale: 'en' }) });
    await screen.findByText('No webhooks yet.', {}, { timeout: 10_000 });
    fireEvent.click(screen.getByRole('button', { name: 'Add webhook' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/Address/), { target: { value: 'https://10.0.0.1/x' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText('The webhook address cannot be a private, local or loopback address.')).toBeInTheDocument();
  });

  it('lists deliveries with re-send, and tells of a disabled endpoint with a way to enable it', async () => {
    const disabled = makeWebhook({ disabledAt: '2026-03-10T08:00:00Z', consecutiveFailures: 10 });
    const { requests } = mockApi(
      routes([disabled], {
        'POST /api/webhooks/1/deliveries/5/resend': { body: { ...delivery, status: 'pending' } },
        'POST /api/webhooks/1/enable': { body: makeWebhook() },
      }),
    );
    renderApp('/settings/webhooks', { preloadedState: loggedInState(admin) });
    expect(await screen.findByText('1 webhook se deshabilitó tras varios envíos fallidos.', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText(/Deshabilitado el/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Envíos' }));
    const log = await screen.findByRole('region', { name: 'Envíos a https://hooks.example.com/loyalty' });
    expect(await within(log).findByText('msg_0123456789abcdef')).toBeInTheDocument();
    expect(log).toHaveTextContent('Entregado');
    fireEvent.click(within(log).getByRole('button', { name: 'Reenviar' }));
    await waitFor(() => expect(requests.some((r) => r.path === '/api/webhooks/1/deliveries/5/resend')).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: 'Habilitar' }));
    await waitFor(() => expect(requests.some((r) => r.path === '/api/webhooks/1/enable')).toBe(true));
  });
});
