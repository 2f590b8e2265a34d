import { lazy, Suspense } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import type { AppStore } from './app/store';
import { PreferencesSync } from './components/PreferencesSync';
import { Toaster } from './components/Toaster';
import { i18n } from './i18n';
import { AppRoutes } from './routes/AppRoutes';

// The till's sender of offline accreditations: a chunk of its own, with the till, so that the
// login screen does not wait for the till's code (docs/performance.md, "Initial JavaScript").
const OfflineSync = lazy(() => import('./features/points').then(({ OfflineSync }) => ({ default: OfflineSync })));

/** Everything inside the router: preferences, routes, toasts. Tests render this in a MemoryRouter. */
export function AppShell() {
  return (
    <>
      <PreferencesSync />
      <Suspense fallback={null}>
        <OfflineSync />
      </Suspense>
      <AppRoutes />
      <Toaster />
    </>
  );
}

export function App({ store }: { store: AppStore }) {
  return (
    <Provider store={store}>
      <I18nextProvider i18n={i18n}>
        <BrowserRouter>
          <AppShell />
        </BrowserRouter>
      </I18nextProvider>
    </Provider>
  );
}
