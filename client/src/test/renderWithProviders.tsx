import { render, type RenderOptions } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement, ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { AppShell } from '../App';
import { makeStore, type AppStore, type RootState } from '../app/store';
import { i18n, setupI18n } from '../i18n';

export interface ProvidersOptions extends Omit<RenderOptions, 'wrapper' | 'queries'> {
  preloadedState?: Partial<RootState>;
  store?: AppStore;
  /** Initial location of the in-memory router (path, or path plus router state). */
  route?: string | { pathname: string; state?: unknown };
}

/** Shows the router's current location, so tests can assert redirects. */
function LocationProbe() {
  const location = useLocation();
  return (
    <output data-testid="location" hidden>
      {`${location.pathname}${location.search}`}
    </output>
  );
}

/** Renders `ui` with a real store (built by makeStore), i18n and an in-memory router. */
export function renderWithProviders(ui: ReactElement, options: ProvidersOptions = {}) {
  const { preloadedState, store = makeStore(preloadedState), route = '/', ...renderOptions } = options;
  setupI18n(store.getState().preferences.locale);
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <Provider store={store}>
        <I18nextProvider i18n={i18n}>
          <MemoryRouter initialEntries={[route]}>
            {children}
            <LocationProbe />
          </MemoryRouter>
        </I18nextProvider>
      </Provider>
    );
  }
  return { store, user: userEvent.setup(), ...render(ui, { wrapper: Wrapper, ...renderOptions }) };
}

/** Renders the whole app (routes, layout, toasts) at `route`. */
export function renderApp(route: string, options: Omit<ProvidersOptions, 'route'> = {}) {
  return renderWithProviders(<AppShell />, { ...options, route });
}
