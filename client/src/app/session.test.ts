import { describe, expect, it } from 'vitest';
import { loggedInState, makeUser } from '../test/fixtures';
import { impersonationEnded, impersonationStarted, loggedIn, loginName, selectIsImpersonating } from './session';
import { makeStore } from './store';

const superAdmin = makeUser('super_admin');
const companyAdmin = makeUser('admin', { username: 'admin', impersonatedBy: 'root' });

describe('session', () => {
  it('impersonation saves the original session and exit restores it', () => {
    const store = makeStore(loggedInState(superAdmin));
    store.dispatch(impersonationStarted({ token: 'tenant', user: companyAdmin }));
    expect(store.getState().session).toEqual({
      token: 'tenant',
      user: companyAdmin,
      originalToken: 'token-root',
      originalUser: superAdmin,
    });
    expect(selectIsImpersonating(store.getState())).toBe(true);

    store.dispatch(impersonationEnded());
    expect(store.getState().session).toEqual({ token: 'token-root', user: superAdmin, originalToken: null, originalUser: null });
    expect(selectIsImpersonating(store.getState())).toBe(false);
  });

  it('a second impersonation keeps the super admin as the original', () => {
    const store = makeStore(loggedInState(superAdmin));
    store.dispatch(impersonationStarted({ token: 'a', user: companyAdmin }));
    store.dispatch(impersonationStarted({ token: 'b', user: companyAdmin }));
    expect(store.getState().session.originalToken).toBe('token-root');
  });

  it('exit without a saved original logs out', () => {
    const store = makeStore(loggedInState(companyAdmin));
    store.dispatch(impersonationEnded());
    expect(store.getState().session.user).toBeNull();
  });

  it('a new login forgets any impersonation', () => {
    const store = makeStore(loggedInState(companyAdmin, { original: { token: 't', user: superAdmin } }));
    store.dispatch(loggedIn({ token: 'x', user: makeUser('cajero') }));
    expect(store.getState().session.originalUser).toBeNull();
  });

  it('shows company users as username@prefix', () => {
    expect(loginName(makeUser('cajero'))).toBe('caja1@demo');
    expect(loginName(superAdmin)).toBe('root');
  });
});
