import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import type { AppStore } from './app/store';
import { PreferencesSync } from './components/PreferencesSync';
import { Toaster } from './components/Toaster';
import { OfflineSync } from './features/points';
import { i18n } from './i18n';
import { AppRoutes } from './routes/AppRoutes';

/** Everything inside the router: preferences, routes, toasts. Tests render this in a MemoryRouter. */
export function AppShell() {
  return (
    <>
      <PreferencesSync />
      <OfflineSync />
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
