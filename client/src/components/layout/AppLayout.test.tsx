import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { loggedInState, makeCompanies, makeSettings, makeUser } from '../../test/fixtures';
import { mockApi, tenantRoutes } from '../../test/mockApi';
import { renderApp } from '../../test/renderWithProviders';

const navNames = () =>
  within(screen.getAllByRole('navigation', { name: 'Navegación principal' })[0]!)
    .queryAllByRole('link')
    .map((link) => link.textContent);

describe('header', () => {
  it('shows an admin every section, username@prefix and the company name', async () => {
    mockApi(tenantRoutes(makeSettings()));
    renderApp('/main', { preloadedState: loggedInState(makeUser('admin')) });
    await screen.findByRole('heading', { level: 1, name: 'Panel' });
    expect(navNames()).toEqual(['Panel', 'Acreditar', 'Redimir', 'Reportes', 'Alertas', 'Solicitudes de datos', 'Configuración', 'Auditoría']);
    const badge = screen.getAllByTestId('user-badge')[0]!;
    expect(badge).toHaveTextContent('admin@demo');
    expect(badge).toHaveTextContent('Tienda Demo');
  });

  it('shows a cajero only the permitted sections', async () => {
    mockApi(tenantRoutes(makeSettings({ supervisor: [], cajero: ['/accreditar', '/redimir', '/settings/customers'] })));
    renderApp('/accreditar', { preloadedState: loggedInState(makeUser('cajero')) });
    await screen.findByRole('heading', { level: 1, name: 'Acreditar puntos' });
    expect(navNames()).toEqual(['Acreditar', 'Redimir', 'Configuración']);
    expect(screen.getAllByTestId('user-badge')[0]).toHaveTextContent('caja1@demo');
  });

  it('shows the super admin only the company screen and the super-admin label', async () => {
    mockApi({ 'GET /api/super/companies': { body: makeCompanies(1) } });
    renderApp('/superadmin', { preloadedState: loggedInState(makeUser('super_admin')) });
    await screen.findByRole('heading', { level: 1, name: 'Empresas' });
    expect(navNames()).toEqual(['Empresas']);
    expect(screen.getAllByTestId('user-badge')[0]).toHaveTextContent('Super administrador');
  });

  it('toggles the theme class on <html> and stores it', async () => {
    mockApi(tenantRoutes(makeSettings()));
    const { user, store } = renderApp('/main', { preloadedState: loggedInState(makeUser('admin')) });
    await screen.findByRole('heading', { level: 1, name: 'Panel' });
    expect(document.documentElement).toHaveClass('light');
    await user.click(screen.getByRole('button', { name: 'Cambiar a tema oscuro' }));
    expect(document.documentElement).toHaveClass('dark');
    expect(store.getState().preferences.theme).toBe('dark');
    await user.click(screen.getByRole('button', { name: 'Cambiar a tema claro' }));
    expect(document.documentElement).not.toHaveClass('dark');
  });

  it('switches the language from Español to English', async () => {
    mockApi(tenantRoutes(makeSettings()));
    const { user, store } = renderApp('/main', { preloadedState: loggedInState(makeUser('admin')) });
    await screen.findByRole('heading', { level: 1, name: 'Panel' });
    // The button's name starts with the code it shows (WCAG 2.5.3).
    await user.click(screen.getByRole('button', { name: 'ES — Idioma: Español' }));
    expect(screen.getByRole('menuitemradio', { name: 'Español' })).toHaveAttribute('aria-checked', 'true');
    await user.click(screen.getByRole('menuitemradio', { name: 'English' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(store.getState().preferences.locale).toBe('en');
    expect(document.documentElement.lang).toBe('en-US');
    expect(screen.getByRole('button', { name: 'EN — Language: English' })).toHaveTextContent('EN');
  });

  it('logs out to /login', async () => {
    mockApi(tenantRoutes(makeSettings()));
    const { user, store } = renderApp('/main', { preloadedState: loggedInState(makeUser('admin')) });
    await screen.findByRole('heading', { level: 1, name: 'Panel' });
    await user.click(screen.getAllByRole('button', { name: 'Cerrar sesión' })[0]!);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    expect(store.getState().session.token).toBeNull();
  });

  it('opens and closes the mobile slide-out menu', async () => {
    mockApi(tenantRoutes(makeSettings()));
    const { user } = renderApp('/main', { preloadedState: loggedInState(makeUser('admin')) });
    await screen.findByRole('heading', { level: 1, name: 'Panel' });
    const menu = document.getElementById('mobile-menu')!;
    expect(menu).not.toHaveClass('open');
    await user.click(screen.getByRole('button', { name: 'Abrir menú' }));
    expect(menu).toHaveClass('open');
    await user.click(within(menu).getByRole('link', { name: 'Reportes' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/reportes'));
    expect(menu).not.toHaveClass('open');
  });

  it('restores an impersonation from the stored session and shows the banner', async () => {
    mockApi(tenantRoutes(makeSettings()));
    const impersonated = makeUser('admin', { username: 'admin', impersonatedBy: 'root' });
    renderApp('/main', {
      preloadedState: loggedInState(impersonated, { original: { token: 'root', user: makeUser('super_admin') } }),
    });
    expect(await screen.findByTestId('impersonation-banner')).toHaveTextContent('Sesión abierta por root.');
  });
});
