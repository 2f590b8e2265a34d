import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { loggedInState, makeSettings, makeUser } from '../../test/fixtures';
import { mockApi, tenantRoutes } from '../../test/mockApi';
import { renderApp, renderWithProviders } from '../../test/renderWithProviders';
import { ConsentsDialog } from './ConsentsDialog';
import { checkConsent } from './consent';
import type { PrivacyNotice } from './privacyApi';

const first: PrivacyNotice = {
  version: 1,
  body: 'AVISO DE PRIVACIDAD\n\nTienda Demo, responsable del tratamiento.',
  purposes: [
    { key: 'loyalty', description: 'Programa de fidelización.', required: true },
    { key: 'marketing', description: 'Mercadeo.', required: false },
  ],
  publishedAt: '2026-01-02T15:00:00Z',
  publishedBy: 'system',
  impersonatedBy: null,
};

describe('checkConsent', () => {
  it('needs the notice and every required purpose, and sends the version in force at a store', () => {
    expect(checkConsent(undefined, ['loyalty'])).toEqual({ ok: false, error: 'privacy.consent.errorNoNotice' });
    expect(checkConsent(first, ['marketing'])).toEqual({ ok: false, error: 'privacy.consent.errorRequired' });
    expect(checkConsent(first, ['marketing', 'loyalty', 'gone'])).toEqual({
      ok: true,
      consent: { noticeVersion: 1, purposes: ['loyalty', 'marketing'], channel: 'store' },
    });
  });
});

describe('public privacy page', () => {
  it('shows the notice in force without logging in', async () => {
    const { requests } = mockApi({
      'GET /api/public/tienda/privacy': {
        body: { company: 'Tienda Demo', version: 4, body: 'Texto del aviso, versión 4.', purposes: first.purposes, publishedAt: first.publishedAt },
      },
    });
    renderApp('/privacidad/tienda');
    expect(await screen.findByRole('heading', { level: 1, name: 'Aviso de privacidad de Tienda Demo' })).toBeInTheDocument();
    expect(screen.getByText('Texto del aviso, versión 4.')).toBeInTheDocument();
    expect(screen.getByText(/^Versión 4, publicada el/)).toBeInTheDocument();
    expect(screen.getByText('Programa de fidelización.')).toBeInTheDocument();
    expect(requests[0]?.headers.get('authorization')).toBeNull();
  });

  it('says so when there is no notice at the address', async () => {
    mockApi({ 'GET /api/public/nadie/privacy': { status: 404, body: { message: 'privacy notice not found', code: 'privacy.noticeNotFound' } } });
    renderApp('/privacidad/nadie', { preloadedState: { preferences: { locale: 'en', theme: 'light' } } });
    expect(await screen.findByRole('alert')).toHaveTextContent('There is no privacy notice at this address.');
  });
});

describe('privacy settings screen', () => {
  it('lists the versions and publishes a new one from the version in force', async () => {
    let notices = [first];
    const { requests } = mockApi({
      ...tenantRoutes(makeSettings()),
      'GET /api/privacy-notices': () => ({ body: notices }),
      'POST /api/privacy-notices': ({ body }) => {
        const published = { ...first, ...(body as object), version: 2, publishedBy: 'admin' } as PrivacyNotice;
        notices = [published, ...notices];
        return { status: 201, body: published };
      },
    });
    const { user } = renderApp('/settings/privacy', { preloadedState: loggedInState(makeUser('admin')) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Aviso de privacidad' })).toBeInTheDocument();
    const form = await screen.findByRole('form', { name: 'Publicar una nueva versión' });
    const body = within(form).getByLabelText('Texto del aviso');
    await waitFor(() => expect(body).toHaveValue(first.body));
    expect(screen.getByText('Está vigente la versión 1.')).toBeInTheDocument();
    expect(within(form).getAllByLabelText('Clave')[0]).toHaveAttribute('readonly');

    await user.clear(body);
    await user.type(body, 'Aviso nuevo: escríbanos a datos@example.com.');
    await user.click(within(form).getByRole('button', { name: 'Agregar una finalidad' }));
    await user.type(within(form).getAllByLabelText('Clave')[2]!, 'surveys');
    await user.type(within(form).getAllByLabelText('Descripción')[2]!, 'Encuestas.');
    await user.click(within(form).getByRole('button', { name: 'Publicar nueva versión' }));

    expect(await screen.findByText('Se publicó la versión 2 del aviso de privacidad.')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      body: 'Aviso nuevo: escríbanos a datos@example.com.',
      purposes: [
        { key: 'loyalty', description: 'Programa de fidelización.' },
        { key: 'marketing', description: 'Mercadeo.' },
        { key: 'surveys', description: 'Encuestas.' },
      ],
    });
    await waitFor(() => expect(screen.getByText('Está vigente la versión 2.')).toBeInTheDocument());
    expect(within(screen.getByRole('region', { name: 'Versiones' })).getAllByRole('listitem').length).toBeGreaterThanOrEqual(2);
  });

  it('is for admins only', async () => {
    mockApi({ ...tenantRoutes(makeSettings({ supervisor: ['/main', '/settings/customers'], cajero: [] })) });
    renderApp('/settings/privacy', { preloadedState: loggedInState(makeUser('supervisor')) });
    await waitFor(() => expect(screen.queryByRole('heading', { level: 1, name: 'Aviso de privacidad' })).not.toBeInTheDocument());
  });
});

describe("a customer's authorizations after enrolment", () => {
  const record = (purpose: string, granted: boolean) => ({
    purpose,
    granted,
    noticeVersion: 1,
    channel: 'store',
    recordedAt: '2026-01-05T15:00:00Z',
    recordedBy: 'cajero',
    impersonatedBy: null,
  });

  function server(current: ReturnType<typeof record>[]) {
    return mockApi({
      'GET /api/privacy-notices/current': { body: first },
      'GET /api/customers/7/consents': { body: { customerId: 7, current, history: current } },
      'PUT /api/customers/7/consents': ({ body }) => {
        const purposes = (body as { purposes: Record<string, boolean> }).purposes;
        const revoked = purposes.loyalty === false;
        return { body: { customerId: 7, current, history: current, revocationRequestId: revoked ? 31 : null } };
      },
    });
  }

  it('ticks what the customer granted and sends only what changed, at the store', async () => {
    const { requests } = server([record('loyalty', true)]);
    const onClose = vi.fn();
    const { user } = renderWithProviders(<ConsentsDialog customer={{ id: 7, name: 'Valentina' }} onClose={onClose} />, {
      preloadedState: loggedInState(makeUser('supervisor')),
    });
    const dialog = await screen.findByRole('dialog', { name: 'Autorizaciones de Valentina' });
    const loyalty = await within(dialog).findByRole('checkbox', { name: /Programa de fidelización/ });
    await waitFor(() => expect(loyalty).toBeChecked());
    const marketing = within(dialog).getByRole('checkbox', { name: /Mercadeo/ });
    expect(marketing).not.toBeChecked();

    await user.click(within(dialog).getByRole('button', { name: 'Guardar autorizaciones' }));
    expect(await within(dialog).findByText('No cambió ninguna autorización.')).toBeInTheDocument();

    await user.click(marketing);
    await user.click(within(dialog).getByRole('button', { name: 'Guardar autorizaciones' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({ channel: 'store', purposes: { marketing: true } });
  });

  it('warns that unticking the required purpose files a claim, and sends its revocation', async () => {
    const { requests } = server([record('loyalty', true), record('marketing', true)]);
    const onClose = vi.fn();
    const { user } = renderWithProviders(<ConsentsDialog customer={{ id: 7, name: 'Valentina' }} onClose={onClose} />, {
      preloadedState: loggedInState(makeUser('admin')),
    });
    const dialog = await screen.findByRole('dialog', { name: 'Autorizaciones de Valentina' });
    const loyalty = await within(dialog).findByRole('checkbox', { name: /Programa de fidelización/ });
    await waitFor(() => expect(loyalty).toBeChecked());
    expect(within(dialog).queryByTestId('revocation-warning')).not.toBeInTheDocument();
    await user.click(loyalty);
    expect(within(dialog).getByTestId('revocation-warning')).toHaveTextContent('se radica un reclamo');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar autorizaciones' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({ channel: 'store', purposes: { loyalty: false } });
  });
});
