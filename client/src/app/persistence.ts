// Local persistence with exactly the keys of docs/screens.md, "Session".

import { isLocale } from '../lib/format';
import type { User } from '../lib/types';
import { initialPreferencesState, isTheme, type PreferencesState } from './preferences';
import { initialSessionState, type SessionState } from './session';
import type { AppStore, RootState } from './store';

export const STORAGE_KEYS = {
  token: 'authToken',
  user: 'loggedInUser',
  originalUser: 'originalUser',
  originalToken: 'originalAuthToken',
  theme: 'theme',
  locale: 'locale',
} as const;

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const ROLES = new Set(['super_admin', 'admin', 'supervisor', 'cajero']);

function readUser(storage: KeyValueStorage, key: string): User | null {
  const raw = storage.getItem(key);
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (
      value &&
      typeof value === 'object' &&
      'username' in value &&
      typeof value.username === 'string' &&
      'role' in value &&
      ROLES.has(value.role as string)
    ) {
      return value as User;
    }
  } catch {
    // A damaged entry counts as no entry.
  }
  return null;
}

export function readSession(storage: KeyValueStorage): SessionState {
  const token = storage.getItem(STORAGE_KEYS.token);
  const user = readUser(storage, STORAGE_KEYS.user);
  if (!token || !user) return initialSessionState;
  const originalToken = storage.getItem(STORAGE_KEYS.originalToken);
  const originalUser = readUser(storage, STORAGE_KEYS.originalUser);
  const impersonating = Boolean(originalToken && originalUser);
  return {
    token,
    user,
    originalToken: impersonating ? originalToken : null,
    originalUser: impersonating ? originalUser : null,
  };
}

export function readPreferences(storage: KeyValueStorage): PreferencesState {
  const theme = storage.getItem(STORAGE_KEYS.theme);
  const locale = storage.getItem(STORAGE_KEYS.locale);
  return {
    theme: isTheme(theme) ? theme : initialPreferencesState.theme,
    locale: isLocale(locale) ? locale : initialPreferencesState.locale,
  };
}

/** The state to start the store with, restored from storage (including an impersonation). */
export function readPersistedState(storage: KeyValueStorage): Pick<RootState, 'session' | 'preferences'> {
  return { session: readSession(storage), preferences: readPreferences(storage) };
}

function write(storage: KeyValueStorage, key: string, value: string | null): void {
  if (value === null) storage.removeItem(key);
  else storage.setItem(key, value);
}

export function writeSession(storage: KeyValueStorage, session: SessionState): void {
  write(storage, STORAGE_KEYS.token, session.token);
  write(storage, STORAGE_KEYS.user, session.user ? JSON.stringify(session.user) : null);
  write(storage, STORAGE_KEYS.originalToken, session.originalToken);
  write(storage, STORAGE_KEYS.originalUser, session.originalUser ? JSON.stringify(session.originalUser) : null);
}

export function writePreferences(storage: KeyValueStorage, preferences: PreferencesState): void {
  write(storage, STORAGE_KEYS.theme, preferences.theme);
  write(storage, STORAGE_KEYS.locale, preferences.locale);
}

/** Writes the session and preferences to storage whenever they change. Returns the unsubscribe. */
export function persistStore(store: AppStore, storage: KeyValueStorage): () => void {
  let { session, preferences } = store.getState();
  writeSession(storage, session);
  writePreferences(storage, preferences);
  return store.subscribe(() => {
    const state = store.getState();
    if (state.session !== session) {
      session = state.session;
      writeSession(storage, session);
    }
    if (state.preferences !== preferences) {
      preferences = state.preferences;
      writePreferences(storage, preferences);
    }
  });
}
