import { describe, expect, it } from 'vitest';
import { loggedInState, makeUser } from '../test/fixtures';
import { persistStore, readPersistedState, STORAGE_KEYS } from './persistence';
import { localeChanged, themeToggled } from './preferences';
import { impersonationEnded, impersonationStarted, loggedIn, loggedOut } from './session';
import { makeStore } from './store';

const superAdmin = makeUser('super_admin');
const companyAdmin = makeUser('admin', { username: 'admin', impersonatedBy: 'root' });

describe('session persistence', () => {
  it('uses exactly the keys authToken, loggedInUser, originalUser, originalAuthToken, theme, locale', () => {
    expect(Object.values(STORAGE_KEYS).sort()).toEqual(
      ['authToken', 'loggedInUser', 'originalUser', 'originalAuthToken', 'theme', 'locale'].sort(),
    );
  });

  it('starts logged out with light theme and Spanish when nothing is stored', () => {
    expect(readPersistedState(localStorage)).toEqual({
      session: { token: null, user: null, originalToken: null, originalUser: null },
      preferences: { theme: 'light', locale: 'es' },
    });
  });

  it('stores a login and restores it on start', () => {
    const store = makeStore();
    persistStore(store, localStorage);
    store.dispatch(loggedIn({ token: 'abc', user: superAdmin }));
    expect(localStorage.getItem('authToken')).toBe('abc');
    expect(JSON.parse(localStorage.getItem('loggedInUser')!)).toEqual(superAdmin);
    expect(readPersistedState(localStorage).session).toEqual({
      token: 'abc',
      user: superAdmin,
      originalToken: null,
      originalUser: null,
    });
  });

  it('stores and restores an impersonation, and clears it on exit', () => {
    const store = makeStore(loggedInState(superAdmin));
    persistStore(store, localStorage);
    store.dispatch(impersonationStarted({ token: 'company-token', user: companyAdmin }));
    expect(localStorage.getItem('authToken')).toBe('company-token');
    expect(localStorage.getItem('originalAuthToken')).toBe('token-root');
    expect(JSON.parse(localStorage.getItem('originalUser')!)).toEqual(superAdmin);

    const restored = makeStore(readPersistedState(localStorage)).getState().session;
    expect(restored).toEqual({ token: 'company-token', user: companyAdmin, originalToken: 'token-root', originalUser: superAdmin });

    store.dispatch(impersonationEnded());
    expect(localStorage.getItem('authToken')).toBe('token-root');
    expect(localStorage.getItem('originalAuthToken')).toBeNull();
    expect(localStorage.getItem('originalUser')).toBeNull();
  });

  it('removes the session keys on logout but keeps theme and language', () => {
    const store = makeStore(loggedInState(superAdmin));
    persistStore(store, localStorage);
    store.dispatch(themeToggled());
    store.dispatch(localeChanged('en'));
    store.dispatch(loggedOut());
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(localStorage.getItem('loggedInUser')).toBeNull();
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(localStorage.getItem('locale')).toBe('en');
    expect(readPersistedState(localStorage).preferences).toEqual({ theme: 'dark', locale: 'en' });
  });

  it('ignores damaged or partial entries', () => {
    localStorage.setItem('authToken', 'abc');
    localStorage.setItem('loggedInUser', '{not json');
    localStorage.setItem('theme', 'purple');
    localStorage.setItem('locale', 'fr');
    expect(readPersistedState(localStorage)).toEqual({
      session: { token: null, user: null, originalToken: null, originalUser: null },
      preferences: { theme: 'light', locale: 'es' },
    });
  });

  it('restores a session without an impersonation when only half of the original is stored', () => {
    localStorage.setItem('authToken', 'abc');
    localStorage.setItem('loggedInUser', JSON.stringify(superAdmin));
    localStorage.setItem('originalAuthToken', 'orphan');
    expect(readPersistedState(localStorage).session).toEqual({
      token: 'abc',
      user: superAdmin,
      originalToken: null,
      originalUser: null,
    });
  });
});
