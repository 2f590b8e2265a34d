import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { AuthResponse, User } from '../lib/types';

/**
 * The login session. While a super admin impersonates a company, `token`/`user` are the
 * company admin's and `originalToken`/`originalUser` keep the super admin's own session.
 */
export interface SessionState {
  token: string | null;
  user: User | null;
  originalToken: string | null;
  originalUser: User | null;
}

export const initialSessionState: SessionState = {
  token: null,
  user: null,
  originalToken: null,
  originalUser: null,
};

export const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSessionState,
  reducers: {
    loggedIn(_state, action: PayloadAction<AuthResponse>) {
      return { ...initialSessionState, token: action.payload.token, user: action.payload.user };
    },
    loggedOut() {
      return initialSessionState;
    },
    /** The user's own password changed: the server ended the other sessions and renewed this one. */
    tokenRenewed(state, action: PayloadAction<string>) {
      state.token = action.payload;
    },
    /** The server no longer accepts the token (401), or the session's data could not load. */
    sessionEnded() {
      return initialSessionState;
    },
    impersonationStarted(state, action: PayloadAction<AuthResponse>) {
      state.originalToken = state.originalToken ?? state.token;
      state.originalUser = state.originalUser ?? state.user;
      state.token = action.payload.token;
      state.user = action.payload.user;
    },
    impersonationEnded(state) {
      if (!state.originalToken || !state.originalUser) return initialSessionState;
      return { ...initialSessionState, token: state.originalToken, user: state.originalUser };
    },
  },
  selectors: {
    selectToken: (state) => state.token,
    selectUser: (state) => state.user,
    selectOriginalUser: (state) => state.originalUser,
    selectIsImpersonating: (state) => Boolean(state.user?.impersonatedBy),
  },
});

export const { loggedIn, loggedOut, tokenRenewed, sessionEnded, impersonationStarted, impersonationEnded } =
  sessionSlice.actions;
export const { selectToken, selectUser, selectOriginalUser, selectIsImpersonating } = sessionSlice.selectors;

/** Login name shown in the header: username@prefix for company users, the bare name otherwise. */
export function loginName(user: Pick<User, 'username' | 'company'>): string {
  return user.company?.prefix ? `${user.username}@${user.company.prefix}` : user.username;
}
