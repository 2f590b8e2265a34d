import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { registerSW } from 'virtual:pwa-register';
import { App } from './App';
import { connectionChanged } from './app/offline';
import { persistStore, readPersistedState } from './app/persistence';
import { makeStore } from './app/store';
import { applyTheme } from './components/PreferencesSync';
import { setupI18n } from './i18n';
import { prefetchLayout } from './routes/AppRoutes';
import './styles/index.css';

const root = document.getElementById('root');
if (!root) throw new Error('Root element #root not found');

const persisted = readPersistedState(window.localStorage);
const store = makeStore(persisted);
persistStore(store, window.localStorage);
applyTheme(persisted.preferences.theme);

// The offline banner and the till follow the browser's view of the connection.
const followConnection = () => store.dispatch(connectionChanged(navigator.onLine));
window.addEventListener('online', followConnection);
window.addEventListener('offline', followConnection);
followConnection();

// The service worker (docs/operations.md, "Service worker"). A new version found on a later
// visit waits, and takes over when every tab of the app has been closed: the next start, never
// in the middle of a sale, so nothing here asks to reload. Registered once the page has loaded,
// so that its download of the app's files does not compete with the first screen's.
registerSW({ immediate: false });

// The first render waits for the visitor's language (a chunk of its own): no untranslated key
// shows meanwhile. The signed-in shell, a chunk too, downloads alongside: the next screen after
// the login, or the first one of a signed-in start (docs/performance.md, "Initial JavaScript").
prefetchLayout();
void setupI18n(persisted.preferences.locale).then(() =>
  createRoot(root).render(
    <StrictMode>
      <App store={store} />
    </StrictMode>,
  ),
);
