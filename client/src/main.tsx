import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { persistStore, readPersistedState } from './app/persistence';
import { makeStore } from './app/store';
import { applyTheme } from './components/PreferencesSync';
import { setupI18n } from './i18n';
import './styles/index.css';

const root = document.getElementById('root');
if (!root) throw new Error('Root element #root not found');

const persisted = readPersistedState(window.localStorage);
const store = makeStore(persisted);
persistStore(store, window.localStorage);
setupI18n(persisted.preferences.locale);
applyTheme(persisted.preferences.theme);

createRoot(root).render(
  <StrictMode>
    <App store={store} />
  </StrictMode>,
);
