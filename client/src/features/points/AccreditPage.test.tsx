import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { loggedInState, makeSettings, makeUser } from '../../test/fixtures';
import { mockApi, tenantRoutes, type MockHandler, type MockRequest } from '../../test/mockApi';
import { makeCustomer, makeTransaction } from '../../test/pointsFixtures';
import { renderApp } from '../../test/renderWithProviders';

// The pages load lazily; load them once up front so no test pays for it on a busy machine.
beforeAll(async () => {
  await import('.');
}, 60_000);

const cajero = makeUser('cajero');
const settings = makeSettings({ supervisor: [], cajero: ['/main', '/accreditar', '/redimir', '/reportes'] });
const asCajero = (locale: 'es' | 'en' = 'es') => ({ preloadedState: loggedInState(cajero, { locale }) });
const customer = makeCustomer({ points: 1000 });

function routes(extra: Record<string, MockHandler> = {}): Record<string, MockHandler> {
  return {
    ...tenantRoutes(settings),
    'GET /api/customers/by-document/1020304050': { body: customer },
    ...extra,
  };
}

const posts = (requests: MockRequest[]) => requests.filter((r) => r.method === 'POST');

async function findCustomer(user: ReturnType<typeof renderApp>['user'], document = '1020304050') {
  await user.type(await screen.findByLabelText('Documento del cliente'), document);
  await user.click(screen.getByRole('button', { name: 'Buscar' }));
}

describe('accredit screen', () => {
  it('asks for a document before searching', async () => {
    const { requests } = mockApi(routes());
    const { user } = renderApp('/accreditar', asCajero('en'));
    await user.click(await screen.findByRole('button', { name: 'Search' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a document number.');
    expect(requests.some((r) => r.path.includes('by-document'))).toBe(false);
  });

  it('says so when no customer has the document', async () => {
    mockApi(routes({ 'GET /api/customers/by-document/999': { status: 404, body: { message: 'customer not found' } } }));
    const { user } = renderApp('/accreditar', asCajero());
    await findCustomer(user, '999');
    expect(await screen.findByRole('alert')).toHaveTextContent('No se encontró un cliente con ese documento.');
  });

  it('looks the customer up by the digits of the document', async () => {
    const { requests } = mockApi(routes());
    const { user } = renderApp('/accreditar', asCajero());
    await findCustomer(user, '1.020.304.050');
    const card = await screen.findByTestId('customer-card');
    expect(card).toHaveTextContent('Ana María Gómez');
    expect(within(card).getByTestId('customer-points')).toHaveTextContent('1.000');
    expect(requests.find((r) => r.path.includes('by-document'))?.path).toBe('/api/customers/by-document/1020304050');
  });

  it('refuses an amount of zero', async () => {
    const { requests } = mockApi(routes());
    const { user } = renderApp('/accreditar', asCajero());
    await findCustomer(user);
    await screen.findByTestId('customer-card');
    await user.type(screen.getByLabelText(/^Valor de la factura/), '0');
    await user.click(screen.getByRole('button', { name: 'Acreditar puntos' }));
    expect(screen.getByRole('alert')).toHaveTextContent('El valor de la factura debe ser un número mayor que cero.');
    expect(posts(requests)).toHaveLength(0);
  });

  it('credits the invoice once with an Idempotency-Key, shows the points and clears the form and the customer', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { requests } = mockApi(
      routes({
        'POST /api/customers/1/accredit': async (request) => {
          await gate;
          const body = request.body as { invoiceAmount: number };
          return {
            body: {
              updatedCustomer: { ...customer, points: 1500 },
              newTransaction: makeTransaction({ id: 9, points: body.invoiceAmount / 100, invoiceAmount: body.invoiceAmount }),
            },
          };
        },
      }),
    );
    const { user } = renderApp('/accreditar', asCajero());
    await findCustomer(user);
    await screen.findByTestId('customer-card');
    const amount = screen.getByLabelText(/^Valor de la factura/);
    await user.type(amount, '50a000');
    expect(amount).toHaveValue('50.000');
    await user.type(screen.getByLabelText('Referencia de la factura'), ' FV-77 ');
    const submit = screen.getByRole('button', { name: 'Acreditar puntos' });
    await user.dblClick(submit);
    release();

    expect(await screen.findByRole('status')).toHaveTextContent('Se acreditaron 500 puntos a Ana María Gómez. Nuevo saldo: 1.500 puntos.');
    const sent = posts(requests);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toEqual({ invoiceAmount: 50000, invoiceReference: 'FV-77' });
    expect(sent[0]?.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(amount).toHaveValue('');
    expect(screen.getByLabelText('Referencia de la factura')).toHaveValue('');
    // The next sale starts from the lookup, so it cannot go to this customer by mistake.
    expect(screen.queryByTestId('customer-card')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Documento del cliente')).toHaveValue('');
    expect(amount).toBeDisabled();
  });

  it('shows what the invoice earns, with the bonuses that apply, before it is submitted', async () => {
    const { requests } = mockApi(
      routes({
        'GET /api/customers/1/accredit-preview': (request) => ({
          body: {
            points: Number(request.url.searchParams.get('invoiceAmount')) / 100 * 3,
            firstPurchaseBonus: 1.5,
            birthdayBonus: 2,
            campaignMultiplier: 1,
          },
        }),
      }),
    );
    const { user } = renderApp('/accreditar', asCajero());
    await findCustomer(user);
    await screen.findByTestId('customer-card');
    await user.type(screen.getByLabelText(/^Valor de la factura/), '50000');
    const preview = await screen.findByTestId('accredit-preview');
    expect(preview).toHaveTextContent('Esta factura suma 1.500 puntos');
    expect(preview).toHaveTextContent('Primera compra ×1,5');
    expect(preview).toHaveTextContent('Cumpleaños ×2');
    expect(preview).not.toHaveTextContent('Campaña');
    const asked = requests.filter((r) => r.path.endsWith('/accredit-preview'));
    expect(asked.at(-1)?.url.searchParams.get('invoiceAmount')).toBe('50000');
    expect(posts(requests)).toHaveLength(0);
  });

  it('retries a post whose answer was lost with the same key', async () => {
    let calls = 0;
    const { requests } = mockApi(
      routes({
        'POST /api/customers/1/accredit': () => {
          calls += 1;
          if (calls === 1) return { status: 503, body: { message: 'Servicio no disponible' } };
          return { body: { updatedCustomer: { ...customer, points: 1100 }, newTransaction: makeTransaction({ points: 100 }) } };
        },
      }),
    );
    const { user } = renderApp('/accreditar', asCajero());
    await findCustomer(user);
    await screen.findByTestId('customer-card');
    await user.type(screen.getByLabelText(/^Valor de la factura/), '10000');
    await user.click(screen.getByRole('button', { name: 'Acreditar puntos' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Servicio no disponible');
    await user.click(screen.getByRole('button', { name: 'Acreditar puntos' }));
    await screen.findByText(/Se acreditaron 100 puntos/);
    const [first, second] = posts(requests);
    expect(second?.headers.get('Idempotency-Key')).toBe(first?.headers.get('Idempotency-Key'));
  });

  it('shows the server message, or the generic one', async () => {
    let answer: { status: number; body?: unknown } = { status: 404, body: { message: 'API Error: customer not found' } };
    mockApi(routes({ 'POST /api/customers/1/accredit': () => answer }));
    const { user } = renderApp('/accreditar', asCajero());
    await findCustomer(user);
    await screen.findByTestId('customer-card');
    await user.type(screen.getByLabelText(/^Valor de la factura/), '10000');
    await user.click(screen.getByRole('button', { name: 'Acreditar puntos' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^customer not found$/);
    answer = { status: 400, body: {} };
    await user.click(screen.getByRole('button', { name: 'Acreditar puntos' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('No se pudo completar la redención.'));
  });

  it('offers a supervisor\'s approval when a velocity limit refuses the sale, keeps the session on a wrong password, and credits it once approved', async () => {
    const refusal = {
      status: 409,
      body: { message: 'limit', code: 'points.velocityAccreditations', params: { limit: 3, today: 3 } },
    };
    const { requests } = mockApi(
      routes({
        'POST /api/customers/1/accredit': ({ body }) => {
          const { supervisorPassword } = (body ?? {}) as { supervisorPassword?: string };
          if (supervisorPassword === undefined) return refusal;
          if (supervisorPassword !== 'clave-sofia') return { status: 401, body: { message: 'x', code: 'void.incorrectCredentials' } };
          return {
            body: { updatedCustomer: { ...customer, points: 1100 }, newTransaction: makeTransaction({ points: 100, approvedBy: 'sofia' }) },
          };
        },
      }),
    );
    const { user } = renderApp('/accreditar', asCajero());
    await findCustomer(user);
    await screen.findByTestId('customer-card');
    await user.type(screen.getByLabelText(/^Valor de la factura/), '10000');
    await user.click(screen.getByRole('button', { name: 'Acreditar puntos' }));

    const dialog = await screen.findByRole('dialog', { name: 'Aprobación del supervisor' });
    expect(within(dialog).getByTestId('velocity-refusal')).toHaveTextContent('ya recibió 3 acreditación(es) hoy y el límite es 3 al día');
    await user.type(within(dialog).getByLabelText(/^Usuario del supervisor/), 'sofia');
    await user.type(within(dialog).getByLabelText(/^Contraseña del supervisor/), 'mala');
    await user.click(within(dialog).getByRole('button', { name: 'Aprobar y acreditar' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Credenciales de supervisor incorrectas.');
    expect(screen.getByTestId('customer-card')).toBeInTheDocument();

    await user.clear(within(dialog).getByLabelText(/^Contraseña del supervisor/));
    await user.type(within(dialog).getByLabelText(/^Contraseña del supervisor/), 'clave-sofia');
    await user.click(within(dialog).getByRole('button', { name: 'Aprobar y acreditar' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Aprobado por sofia.');
    expect(screen.queryByRole('dialog')).toBeNull();
    const sent = posts(requests).map((r) => r.body as Record<string, unknown>);
    expect(sent).toHaveLength(3);
    expect(sent[2]).toMatchObject({ invoiceAmount: 10000, supervisorUsername: 'sofia', supervisorPassword: 'clave-sofia' });
  });

  it('lets a cashier allowed to add customers enroll the one the lookup did not find, with their consent, and go on', async () => {
    const withCustomers = makeSettings({ supervisor: [], cajero: ['/main', '/accreditar', '/settings/customers'] });
    const enrolled = makeCustomer({ id: 7, name: 'Nueva Clienta', document: '999', points: 0 });
    const { requests } = mockApi({
      ...tenantRoutes(withCustomers),
      'GET /api/customers/by-document/999': { status: 404, body: { message: 'customer not found', code: 'customer.notFound' } },
      'POST /api/customers': { status: 201, body: enrolled },
      'GET /api/privacy-notices/current': {
        body: {
          version: 2,
          body: 'AVISO DE PRIVACIDAD, versión 2.',
          purposes: [
            { key: 'loyalty', description: 'Programa de fidelización.', required: true },
            { key: 'marketing', description: 'Mercadeo.', required: false },
          ],
          publishedAt: '2026-01-02T15:00:00Z',
          publishedBy: 'admin',
          impersonatedBy: null,
        },
      },
      'POST /api/customers/7/accredit': { body: { updatedCustomer: { ...enrolled, points: 100 }, newTransaction: makeTransaction({ points: 100 }) } },
    });
    const { user } = renderApp('/accreditar', { preloadedState: loggedInState(cajero) });
    await findCustomer(user, '999');
    await user.click(await screen.findByRole('button', { name: 'Agregar este cliente' }));
    const dialog = screen.getByRole('dialog', { name: 'Nuevo cliente' });
    expect(within(dialog).getByLabelText(/^Documento/)).toHaveValue('999');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar y continuar' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('El nombre y el documento son obligatorios.');
    await user.type(within(dialog).getByLabelText(/^Nombre/), 'Nueva Clienta');
    // The notice in force is shown; without the loyalty purpose nobody is enrolled.
    expect(await within(dialog).findByRole('group', { name: 'Aviso de privacidad (versión 2)' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Agregar y continuar' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('El cliente debe autorizar el programa de fidelización para inscribirse.');
    expect(requests.some((r) => r.method === 'POST' && r.path === '/api/customers')).toBe(false);
    await user.click(within(dialog).getByRole('checkbox', { name: /^Programa de fidelización/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Agregar y continuar' }));
    expect(await screen.findByTestId('customer-card')).toHaveTextContent('Nueva Clienta');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST' && r.path === '/api/customers')?.body).toEqual({
      name: 'Nueva Clienta', document: '999', email: null, phone: null, address: null, birthdate: null,
      consent: { noticeVersion: 2, purposes: ['loyalty'], channel: 'store' },
    });
    await user.type(screen.getByLabelText(/^Valor de la factura/), '10000');
    await user.click(screen.getByRole('button', { name: 'Acreditar puntos' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Se acreditaron 100 puntos a Nueva Clienta.');
  });

  it('offers no enrolment to a cashier who may not add customers', async () => {
    mockApi(routes({ 'GET /api/customers/by-document/999': { status: 404, body: { message: 'customer not found' } } }));
    const { user } = renderApp('/accreditar', asCajero());
    await findCustomer(user, '999');
    expect(await screen.findByRole('alert')).toHaveTextContent('No se encontró un cliente con ese documento.');
    expect(screen.queryByRole('button', { name: 'Agregar este cliente' })).not.toBeInTheDocument();
  });
});
