import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeCompanies, makeSettings, makeUser } from '../../test/fixtures';
import { mockApi, tenantRoutes } from '../../test/mockApi';
import { renderApp } from '../../test/renderWithProviders';
import { afterLoginPath, isOwnPath } from './LoginPage';

const location = () => screen.getByTestId('location').textContent;

async function fillAndSubmit(user: ReturnType<typeof renderApp>['user'], username: string, password: string) {
  if (username) await user.type(screen.getByLabelText(/Usuario/), username);
  if (password) await user.type(screen.getByLabelText(/Contraseña/), password);
  await user.click(screen.getByRole('button', { name: 'Ingresar' }));
}

describe('login screen', () => {
  it('requires both fields', async () => {
    const { requests } = mockApi({});
    const { user } = renderApp('/login');
    await fillAndSubmit(user, 'admin@demo', '');
    expect(screen.getByRole('alert')).toHaveTextContent('Ingresa el usuario y la contraseña.');
    expect(requests).toHaveLength(0);
  });

  it("shows 'Usuario o contraseña incorrectos' under the form when the server refuses", async () => {
    mockApi({ 'POST /api/login': { status: 401, body: { message: 'Invalid credentials' } } });
    const { user, store } = renderApp('/login');
    await fillAndSubmit(user, 'admin@demo', 'wrong');
    expect(await screen.findByRole('alert')).toHaveTextContent('Usuario o contraseña incorrectos');
    expect(store.getState().session.user).toBeNull();
  });

  it('sends the super admin to /superadmin', async () => {
    const superAdmin = makeUser('super_admin');
    const { requests } = mockApi({
      'POST /api/login': { body: { token: 'tok', user: superAdmin } },
      'GET /api/super/companies': { body: makeCompanies(2) },
    });
    const { user, store } = renderApp('/login');
    await fillAndSubmit(user, 'root', 'secret');
    await waitFor(() => expect(location()).toBe('/superadmin'));
    expect(requests[0]!.body).toEqual({ username: 'root', password: 'secret' });
    expect(store.getState().session.token).toBe('tok');
  });

  it('sends a company user back to the page first requested', async () => {
    const admin = makeUser('admin');
    mockApi({ ...tenantRoutes(makeSettings()), 'POST /api/login': { body: { token: 'tok', user: admin } } });
    const { user } = renderApp('/reportes');
    await waitFor(() => expect(location()).toBe('/login'));
    await fillAndSubmit(user, 'admin@demo', 'secret');
    await waitFor(() => expect(location()).toBe('/reportes'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Reporte de transacciones' })).toBeInTheDocument();
  });

  it('sends a company user to / (and so /main) without a remembered page', async () => {
    const admin = makeUser('admin');
    mockApi({ ...tenantRoutes(makeSettings()), 'POST /api/login': { body: { token: 'tok', user: admin } } });
    const { user } = renderApp('/login');
    await fillAndSubmit(user, 'admin@demo', 'secret');
    await waitFor(() => expect(location()).toBe('/main'));
  });

  it('a super admin ignores the remembered page', async () => {
    const superAdmin = makeUser('super_admin');
    mockApi({
      'POST /api/login': { body: { token: 'tok', user: superAdmin } },
      'GET /api/super/companies': { body: [] },
    });
    const { user } = renderApp('/reportes');
    await waitFor(() => expect(location()).toBe('/login'));
    await fillAndSubmit(user, 'root', 'secret');
    await waitFor(() => expect(location()).toBe('/superadmin'));
  });
});

describe('the return path after login', () => {
  const from = (pathname: string, search = '', hash = '') => ({ from: { pathname, search, hash } });

  it('goes back to a path on this site, with its query and fragment', () => {
    expect(afterLoginPath('admin', from('/reportes', '?page=2', '#top'))).toBe('/reportes?page=2#top');
    expect(afterLoginPath('cajero', from('/settings/products'))).toBe('/settings/products');
  });

  it('never goes to another host', () => {
    for (const pathname of ['//evil.example/', '/\\evil.example/', '/\t/evil.example/', '/\n/evil.example', 'https://evil.example/', 'evil.example', '']) {
      expect(afterLoginPath('admin', from(pathname)), JSON.stringify(pathname)).toBe('/');
    }
    expect(afterLoginPath('admin', from('/reportes', '//evil.example'))).toBe('/reportes');
    expect(afterLoginPath('admin', { from: { pathname: 42 } })).toBe('/');
    expect(afterLoginPath('admin', null)).toBe('/');
  });

  it('accepts exactly one leading slash', () => {
    expect(isOwnPath('/main')).toBe(true);
    expect(isOwnPath('//main')).toBe(false);
    expect(isOwnPath('/\\main')).toBe(false);
    expect(isOwnPath('main')).toBe(false);
  });
});
