import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { loggedInState, makeSettings, makeUser } from '../../test/fixtures';
import { mockApi, tenantRoutes, type MockHandler, type MockRequest } from '../../test/mockApi';
import { makeCustomer, makeProduct, makeTransaction } from '../../test/pointsFixtures';
import { renderApp } from '../../test/renderWithProviders';

const cajero = makeUser('cajero');
const settings = { ...makeSettings({ supervisor: [], cajero: ['/main', '/accreditar', '/redimir', '/reportes'] }), redemptionRate: 10 };
const asCajero = (locale: 'es' | 'en' = 'es') => ({ preloadedState: loggedInState(cajero, { locale }) });
const customer = makeCustomer({ points: 5000 });

const cafe = makeProduct({ name: 'Café de origen', description: 'Tostado del Huila', pointsValue: 2800, price: 28000, categoryId: 1, categoryName: 'Bebidas' });
const taza = makeProduct({ name: 'Taza de cerámica', description: 'Con el logo', pointsValue: 1500, price: 15000, categoryId: 2, categoryName: 'Hogar' });
const termo = makeProduct({ name: 'Termo de acero', pointsValue: 4500, price: 45000, categoryId: 2, categoryName: 'Hogar' });
const audifonos = makeProduct({ name: 'Audífonos', pointsValue: 12000, price: 120000, categoryId: 3 });
const retirado = makeProduct({ name: 'Retirado', pointsValue: 10, is_active: false });

function routes(extra: Record<string, MockHandler> = {}): Record<string, MockHandler> {
  return {
    ...tenantRoutes(settings),
    'GET /api/categories': {
      body: [
        { id: 1, name: 'Bebidas', icon: 'Beaker' },
        { id: 2, name: 'Hogar', icon: 'HomeModern' },
      ],
    },
    'GET /api/products': { body: [taza, audifonos, retirado, cafe, termo] },
    'GET /api/customers/by-document/1020304050': { body: customer },
    ...extra,
  };
}

const productNames = () =>
  within(screen.getByRole('list', { name: 'Productos redimibles' }))
    .getAllByRole('button')
    .map((button) => button.querySelector('.product-name')?.textContent);

async function findCustomer(user: ReturnType<typeof renderApp>['user']) {
  await user.type(await screen.findByLabelText('Documento del cliente'), '1020304050');
  await user.click(screen.getByRole('button', { name: 'Buscar' }));
  await screen.findByTestId('customer-card');
}

const posts = (requests: MockRequest[]) => requests.filter((r) => r.method === 'POST');

describe('redeem screen', () => {
  it('asks for a customer before showing products', async () => {
    mockApi(routes());
    renderApp('/redimir', asCajero());
    expect(await screen.findByText('Busca un cliente para ver los productos que puede redimir.')).toBeInTheDocument();
  });

  it('shows the active products the balance covers, most valuable first', async () => {
    mockApi(routes());
    const { user } = renderApp('/redimir', asCajero());
    await findCustomer(user);
    await waitFor(() => expect(productNames()).toEqual(['Termo de acero', 'Café de origen', 'Taza de cerámica']));
  });

  it('filters by category and searches names and descriptions', async () => {
    mockApi(routes());
    const { user } = renderApp('/redimir', asCajero());
    await findCustomer(user);
    await screen.findByRole('list', { name: 'Productos redimibles' });
    await user.selectOptions(screen.getByLabelText('Categoría'), 'Hogar');
    expect(productNames()).toEqual(['Termo de acero', 'Taza de cerámica']);
    await user.selectOptions(screen.getByLabelText('Categoría'), 'Todas las categorías');
    await user.type(screen.getByRole('searchbox', { name: 'Buscar productos' }), 'huila');
    expect(productNames()).toEqual(['Café de origen']);
    await user.clear(screen.getByRole('searchbox', { name: 'Buscar productos' }));
    await user.type(screen.getByRole('searchbox', { name: 'Buscar productos' }), 'nada');
    expect(screen.getByText('Ningún producto coincide con la búsqueda.')).toBeInTheDocument();
  });

  it('says when nothing can be redeemed', async () => {
    mockApi(routes({ 'GET /api/customers/by-document/1020304050': { body: { ...customer, points: 5 } } }));
    const { user } = renderApp('/redimir', asCajero('en'));
    await user.type(await screen.findByLabelText('Customer document'), '1020304050');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No products are available to redeem.')).toBeInTheDocument();
  });

  it('shows at most 10 products until the cashier searches', async () => {
    const many = Array.from({ length: 13 }, (_, i) => makeProduct({ name: `Bono ${i + 1}`, pointsValue: 100 + i }));
    mockApi(routes({ 'GET /api/products': { body: many } }));
    const { user } = renderApp('/redimir', asCajero());
    await findCustomer(user);
    await waitFor(() => expect(productNames()).toHaveLength(10));
    expect(productNames()[0]).toBe('Bono 13');
    await user.type(screen.getByRole('searchbox', { name: 'Buscar productos' }), 'bono');
    expect(productNames()).toHaveLength(13);
  });

  it('switches between grid and list views', async () => {
    mockApi(routes());
    const { user } = renderApp('/redimir', asCajero());
    await findCustomer(user);
    const list = await screen.findByRole('list', { name: 'Productos redimibles' });
    expect(list).toHaveClass('product-picker-grid');
    await user.click(screen.getByRole('button', { name: 'Vista en lista' }));
    expect(screen.getByRole('list', { name: 'Productos redimibles' })).toHaveClass('product-picker-list');
    expect(screen.getByRole('button', { name: 'Vista en lista' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('validates free points and shows their equivalent value', async () => {
    const { requests } = mockApi(routes());
    const { user } = renderApp('/redimir', asCajero());
    await findCustomer(user);
    const points = screen.getByLabelText('Puntos a redimir');
    expect(points).toHaveAttribute('min', '1');
    expect(points).toHaveAttribute('max', '5000');
    expect(points).toHaveAttribute('step', '1');
    await user.type(points, '6000');
    await user.click(screen.getByRole('button', { name: 'Redimir' }));
    expect(screen.getByRole('alert')).toHaveTextContent('El cliente no tiene puntos suficientes.');
    await user.clear(points);
    await user.click(screen.getByRole('button', { name: 'Redimir' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Ingresa una cantidad de puntos válida.');
    await user.type(points, '250');
    expect(screen.getByTestId('equivalent-value')).toHaveTextContent(/\$\s?25$/);
    expect(posts(requests)).toHaveLength(0);
  });

  it('locks points and description to the selected product, and redeems it with a receipt', async () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    const { requests } = mockApi(
      routes({
        'POST /api/customers/1/redeem': {
          body: {
            updatedCustomer: { ...customer, points: 2200 },
            newTransaction: makeTransaction({
              id: 77,
              type: 'redemption',
              points: -2800,
              description: null,
              productName: 'Café de origen',
              invoiceAmount: null,
              redeemedValue: 28000,
              invoiceReference: 'FV-9',
              productId: cafe.id,
            }),
          },
        },
      }),
    );
    const { user } = renderApp('/redimir', asCajero());
    await findCustomer(user);
    await user.click(await screen.findByRole('button', { name: /Café de origen/ }));
    expect(screen.getByRole('button', { name: /Café de origen/ })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByLabelText('Puntos a redimir')).toBeDisabled();
    expect(screen.getByLabelText('Puntos a redimir')).toHaveValue(2800);
    expect(screen.getByLabelText('Descripción')).toHaveValue('Café de origen');
    expect(screen.getByLabelText('Descripción')).toBeDisabled();
    expect(screen.getByTestId('equivalent-value')).toHaveTextContent(/28\.000/);
    await user.type(screen.getByLabelText('Referencia de la factura'), 'FV-9');
    await user.dblClick(screen.getByRole('button', { name: 'Redimir' }));

    const dialog = await screen.findByRole('dialog', { name: 'Comprobante de redención' });
    const sent = posts(requests);
    expect(sent).toHaveLength(1);
    // The product is sent as itself, not as a sentence.
    expect(sent[0]?.body).toEqual({ pointsToRedeem: 2800, description: '', invoiceReference: 'FV-9', productId: cafe.id });
    expect(sent[0]?.headers.get('Idempotency-Key')).toBeTruthy();

    const receipt = within(dialog).getByTestId('receipt');
    for (const text of [
      'Tienda Demo',
      'Tienda Demo S.A.S.',
      'NIT 900123456-7',
      'Calle 1 # 2-3',
      'Tel. 6011234567',
      '#77',
      'Caja principal',
      'caja1',
      'FV-9',
      'Ana María Gómez',
      '1020304050',
      'Café de origen',
      '5.000',
      '-2.800',
      '2.200',
      '¡Gracias por su preferencia!',
    ]) {
      expect(receipt).toHaveTextContent(text);
    }
    expect(receipt.textContent).toMatch(/\d{2}\/\d{2}\/\d{4},? \d{2}:\d{2}/);

    await user.click(within(dialog).getByRole('button', { name: 'Imprimir' }));
    expect(print).toHaveBeenCalledTimes(1);
    // The footer's Close (the header's X closes the same way).
    await user.click(within(dialog).getAllByRole('button', { name: 'Cerrar' }).at(-1)!);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // Closing the receipt resets the form for the next customer.
    expect(screen.queryByTestId('customer-card')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Documento del cliente')).toHaveValue('');
  });

  it('redeems free points without writing a sentence, and the receipt words it in the screen language', async () => {
    const { requests } = mockApi(
      routes({
        'POST /api/customers/1/redeem': {
          body: {
            updatedCustomer: { ...customer, points: 4700 },
            newTransaction: makeTransaction({ id: 78, type: 'redemption', points: -300, invoiceAmount: null, redeemedValue: 30 }),
          },
        },
      }),
    );
    const { user } = renderApp('/redimir', asCajero());
    await findCustomer(user);
    await user.type(screen.getByLabelText('Puntos a redimir'), '300');
    await user.click(screen.getByRole('button', { name: 'Redimir' }));
    const dialog = await screen.findByRole('dialog');
    expect(posts(requests)[0]?.body).toEqual({
      pointsToRedeem: 300,
      description: '',
      invoiceReference: '',
      productId: null,
    });
    expect(within(dialog).getByTestId('receipt')).toHaveTextContent('DescripciónRedención de puntos');
  });

  it('shows the server message when the redemption fails', async () => {
    mockApi(routes({ 'POST /api/customers/1/redeem': { status: 409, body: { message: 'not enough points' } } }));
    const { user } = renderApp('/redimir', asCajero());
    await findCustomer(user);
    await user.type(screen.getByLabelText('Puntos a redimir'), '300');
    await user.click(screen.getByRole('button', { name: 'Redimir' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('not enough points');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
