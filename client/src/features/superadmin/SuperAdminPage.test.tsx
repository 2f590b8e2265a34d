import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { loggedInState, makeCompanies, makeSettings, makeUser } from '../../test/fixtures';
import { mockApi, tenantRoutes, type MockRequest } from '../../test/mockApi';
import { renderApp } from '../../test/renderWithProviders';
import { sanitizePrefix } from './companiesApi';

const superAdmin = makeUser('super_admin');
const asSuperAdmin = { preloadedState: loggedInState(superAdmin) };
const location = () => screen.getByTestId('location').textContent;
const rowNames = () =>
  within(screen.getByRole('region', { name: 'Empresas registradas' }))
    .queryAllByRole('listitem')
    .map((li) => li.querySelector('.row-title')?.textContent ?? '');

describe('company prefix', () => {
  it('is forced to lowercase letters and digits as typed', () => {
    expect(sanitizePrefix('Mi Tienda-2!')).toBe('mitienda2');
    expect(sanitizePrefix('ÑANDÚ_shop')).toBe('andshop');
  });
});

describe('super-admin screen', () => {
  it('lists companies 5 per page by default, sorted by name', async () => {
    mockApi({ 'GET /api/super/companies': { body: makeCompanies(12).reverse() } });
    renderApp('/superadmin', asSuperAdmin);
    expect(await screen.findByText('Mostrando 1-5 de 12')).toBeInTheDocument();
    expect(rowNames()[0]).toContain('Empresa 01');
    expect(screen.getAllByText(/Esquema v1/).length).toBe(5);
    expect(screen.getByRole('combobox', { name: 'Por página' })).toHaveValue('5');
    expect(
      within(screen.getByRole('combobox', { name: 'Por página' }))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['5', '10', '25']);
  });

  it('searches by name, tax ID and prefix', async () => {
    mockApi({ 'GET /api/super/companies': { body: makeCompanies(12) } });
    const { user } = renderApp('/superadmin', asSuperAdmin);
    const search = await screen.findByRole('searchbox');
    await user.type(search, 'empresa 03');
    expect(rowNames()).toHaveLength(1);
    await user.clear(search);
    await user.type(search, '900000011');
    expect(rowNames()[0]).toContain('Empresa 11');
    await user.clear(search);
    await user.type(search, 'empresa12');
    expect(rowNames()[0]).toContain('Empresa 12');
  });

  it('shows the empty text and the no-match text', async () => {
    mockApi({ 'GET /api/super/companies': { body: [] } });
    const { user } = renderApp('/superadmin', { preloadedState: loggedInState(superAdmin, { locale: 'en' }) });
    expect(await screen.findByText('No companies have been created.')).toBeInTheDocument();
    await user.type(screen.getByRole('searchbox'), 'x');
    expect(screen.getByText('No companies found matching the search term.')).toBeInTheDocument();
  });

  it('requires name, prefix, tax ID and admin password to create', async () => {
    const { requests } = mockApi({ 'GET /api/super/companies': { body: [] } });
    const { user } = renderApp('/superadmin', asSuperAdmin);
    await user.click(await screen.findByRole('button', { name: 'Nueva empresa' }));
    const dialog = screen.getByRole('dialog', { name: 'Crear empresa' });
    await user.type(within(dialog).getByLabelText(/^Nombre/), 'Nueva');
    await user.click(within(dialog).getByRole('button', { name: 'Crear empresa' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Todos los campos obligatorios deben estar completos.');
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('creates a company and names the admin login in the success toast', async () => {
    let created: MockRequest | undefined;
    const companies = makeCompanies(1);
    mockApi({
      'GET /api/super/companies': () => ({ body: companies }),
      'POST /api/super/companies': (request) => {
        created = request;
        const body = request.body as { name: string; prefix: string; taxId: string };
        const company = { ...makeCompanies(1)[0]!, id: 99, name: body.name, prefix: body.prefix, taxId: body.taxId };
        companies.push(company);
        return { status: 201, body: company };
      },
    });
    const { user } = renderApp('/superadmin', asSuperAdmin);
    await user.click(await screen.findByRole('button', { name: 'Nueva empresa' }));
    const dialog = screen.getByRole('dialog', { name: 'Crear empresa' });
    await user.type(within(dialog).getByLabelText(/^Nombre/), 'Café Central');
    await user.type(within(dialog).getByLabelText(/^Prefijo/), 'Café-Central 2');
    expect(within(dialog).getByLabelText(/^Prefijo/)).toHaveValue('cafcentral2');
    await user.type(within(dialog).getByLabelText(/^NIT/), '901222333');
    await user.type(within(dialog).getByLabelText(/^Contraseña del administrador/), 'S3guro!');
    await user.click(within(dialog).getByRole('button', { name: 'Crear empresa' }));

    expect(await screen.findByText('Empresa Café Central creada. El administrador ingresa como admin@cafcentral2.')).toBeInTheDocument();
    expect(created?.body).toEqual({
      name: 'Café Central',
      prefix: 'cafcentral2',
      taxId: '901222333',
      logoUrl: '',
      businessName: '',
      address: '',
      phone: '',
      adminPassword: 'S3guro!',
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(rowNames().some((name) => name.includes('Café Central'))).toBe(true));
  });

  it('shows the server message when creating fails, and the generic error otherwise', async () => {
    let answer = { status: 409, body: { message: 'API Error: Prefix already exists' } as unknown };
    mockApi({ 'GET /api/super/companies': { body: [] }, 'POST /api/super/companies': () => answer });
    const { user } = renderApp('/superadmin', asSuperAdmin);
    await user.click(await screen.findByRole('button', { name: 'Nueva empresa' }));
    const dialog = screen.getByRole('dialog');
    await user.type(within(dialog).getByLabelText(/^Nombre/), 'A');
    await user.type(within(dialog).getByLabelText(/^Prefijo/), 'demo');
    await user.type(within(dialog).getByLabelText(/^NIT/), '1');
    await user.type(within(dialog).getByLabelText(/^Contraseña del administrador/), 'x');
    await user.click(within(dialog).getByRole('button', { name: 'Crear empresa' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Prefix already exists');

    answer = { status: 500, body: {} };
    await user.click(within(dialog).getByRole('button', { name: 'Crear empresa' }));
    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent('Error al crear la empresa.'));
  });

  it('edits a company with the prefix read-only and name and tax ID required', async () => {
    let updated: MockRequest | undefined;
    mockApi({
      'GET /api/super/companies': { body: makeCompanies(1) },
      'PUT /api/super/companies/1': (request) => {
        updated = request;
        return { body: { ...makeCompanies(1)[0]!, ...(request.body as object) } };
      },
    });
    const { user } = renderApp('/superadmin', asSuperAdmin);
    await user.click(await screen.findByRole('button', { name: 'Editar Empresa 01' }));
    const dialog = screen.getByRole('dialog', { name: 'Editar empresa' });
    const prefix = within(dialog).getByLabelText(/^Prefijo/);
    expect(prefix).toHaveValue('empresa1');
    expect(prefix).toHaveAttribute('readonly');
    expect(within(dialog).queryByLabelText(/Contraseña del administrador/)).not.toBeInTheDocument();

    await user.clear(within(dialog).getByLabelText(/^NIT/));
    await user.click(within(dialog).getByRole('button', { name: 'Actualizar' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('El nombre y el NIT son obligatorios.');
    expect(updated).toBeUndefined();

    await user.type(within(dialog).getByLabelText(/^NIT/), '800');
    await user.click(within(dialog).getByRole('button', { name: 'Actualizar' }));
    expect(await screen.findByText('Empresa actualizada.')).toBeInTheDocument();
    expect(updated?.body).toMatchObject({ name: 'Empresa 01', taxId: '800' });
    expect(updated?.body).not.toHaveProperty('prefix');
  });

  it('warns strongly, naming the company, before deleting it', async () => {
    const companies = makeCompanies(2);
    mockApi({
      'GET /api/super/companies': () => ({ body: companies }),
      'DELETE /api/super/companies/2': () => {
        companies.pop();
        return { body: { message: 'Company deleted' } };
      },
    });
    const { user } = renderApp('/superadmin', asSuperAdmin);
    await user.click(await screen.findByRole('button', { name: 'Eliminar Empresa 02' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Eliminar empresa' });
    expect(dialog).toHaveTextContent(
      'Vas a eliminar la empresa «Empresa 02». Se borrarán de forma permanente todos sus clientes, usuarios y transacciones. Esta acción es irreversible.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('Empresa Empresa 02 eliminada.')).toBeInTheDocument();
    await waitFor(() => expect(rowNames()).toHaveLength(1));
  });

  it('impersonates a company, shows the banner, and exit returns to /superadmin', async () => {
    const companyAdmin = makeUser('admin', { username: 'admin', impersonatedBy: 'root' });
    const { requests } = mockApi({
      'GET /api/super/companies': { body: makeCompanies(1) },
      'POST /api/super/impersonate': { body: { token: 'tenant-token', user: companyAdmin } },
      ...tenantRoutes(makeSettings()),
    });
    const { user, store } = renderApp('/superadmin', asSuperAdmin);
    await user.click(await screen.findByRole('button', { name: 'Ingresar como administrador' }));

    await waitFor(() => expect(location()).toBe('/main'));
    const banner = await screen.findByTestId('impersonation-banner');
    expect(banner).toHaveTextContent('Estás administrando Tienda Demo como admin.');
    expect(requests.find((r) => r.path === '/api/super/impersonate')?.body).toEqual({ companyId: 1 });
    const settingsCall = requests.find((r) => r.path === '/api/settings');
    expect(settingsCall?.headers.get('authorization')).toBe('Bearer tenant-token');
    expect(store.getState().session.originalUser).toEqual(superAdmin);

    await user.click(within(banner).getByRole('button', { name: 'Salir de la suplantación' }));
    await waitFor(() => expect(location()).toBe('/superadmin'));
    expect(screen.queryByTestId('impersonation-banner')).not.toBeInTheDocument();
    expect(store.getState().session).toMatchObject({ token: 'token-root', user: superAdmin, originalUser: null });
    expect(await screen.findByRole('heading', { level: 1, name: 'Empresas' })).toBeInTheDocument();
  });

  it('shows a generic error when impersonation fails', async () => {
    mockApi({
      'GET /api/super/companies': { body: makeCompanies(1) },
      'POST /api/super/impersonate': { status: 404, body: { message: 'Company not found' } },
    });
    const { user } = renderApp('/superadmin', asSuperAdmin);
    await user.click(await screen.findByRole('button', { name: 'Ingresar como administrador' }));
    expect(await screen.findByText('Ocurrió un error. Inténtalo de nuevo.')).toBeInTheDocument();
    expect(location()).toBe('/superadmin');
  });

  it('logs out when the company list cannot be loaded', async () => {
    mockApi({ 'GET /api/super/companies': { status: 500, body: { message: 'down' } } });
    const { store } = renderApp('/superadmin', asSuperAdmin);
    await waitFor(() => expect(location()).toBe('/login'));
    expect(store.getState().session.user).toBeNull();
  });
});
