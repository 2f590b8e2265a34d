import { combineSlices, configureStore, createListenerMiddleware, isAnyOf } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { api } from './api';
import { offlineSlice } from './offline';
import { preferencesSlice } from './preferences';
import {
  impersonationEnded,
  impersonationStarted,
  loggedIn,
  loggedOut,
  sessionEnded,
  sessionSlice,
} from './session';
import { toastsSlice } from './toasts';

const rootReducer = combineSlices(api, sessionSlice, preferencesSlice, toastsSlice, offlineSlice);

export type RootState = ReturnType<typeof rootReducer>;

/** Builds a store; tests pass a preloaded state, the app passes what localStorage held. */
export function makeStore(preloadedState?: Partial<RootState>) {
  const listener = createListenerMiddleware();
  // Cached answers belong to one session: whenever the acting user changes, forget them all.
  listener.startListening({
    matcher: isAnyOf(loggedIn, loggedOut, sessionEnded, impersonationStarted, impersonationEnded),
    effect: (_action, listenerApi) => {
      listenerApi.dispatch(api.util.resetApiState());
    },
  });

  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware().prepend(listener.middleware).concat(api.middleware),
  });
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
