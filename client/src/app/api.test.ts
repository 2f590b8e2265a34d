import { describe, expect, it } from 'vitest';
import { loggedInState, makeUser } from '../test/fixtures';
import { mockApi } from '../test/mockApi';
import { i18n, setupI18n } from '../i18n';
import { api, apiErrorMessage } from './api';
import { makeStore } from './store';

// A probe endpoint, injected like any feature's endpoints.
const probeApi = api.injectEndpoints({
  endpoints: (build) => ({
    probe: build.query<unknown, void>({ query: () => '/probe' }),
    login: build.mutation<unknown, void>({ query: () => ({ url: '/login', method: 'POST', body: {} }) }),
  }),
  overrideExisting: true,
});

const admin = makeUser('admin');

describe('base query', () => {
  it('sends the bearer token of the session', async () => {
    const { requests } = mockApi({ 'GET /api/probe': { body: { ok: true } } });
    const store = makeStore(loggedInState(admin));
    const result = await store.dispatch(probeApi.endpoints.probe.initiate());
    expect(result.data).toEqual({ ok: true });
    expect(requests[0]!.headers.get('authorization')).toBe('Bearer token-admin');
  });

  it('sends no Authorization header when logged out', async () => {
    const { requests } = mockApi({ 'POST /api/login': { body: {} } });
    const store = makeStore();
    await store.dispatch(probeApi.endpoints.login.initiate());
    expect(requests[0]!.headers.has('authorization')).toBe(false);
  });

  it("reads the message of a JSON error and strips the 'API Error: ' prefix", async () => {
    mockApi({ 'GET /api/probe': { status: 409, body: { message: 'API Error: The prefix is taken' } } });
    const store = makeStore(loggedInState(admin));
    const result = await store.dispatch(probeApi.endpoints.probe.initiate());
    expect(result.error).toEqual({ status: 409, message: 'The prefix is taken' });
    expect(apiErrorMessage(result.error)).toBe('The prefix is taken');
  });

  it("sends the interface's language and shows its own translation of the server's code", async () => {
    const { requests } = mockApi({
      'GET /api/probe': {
        status: 400,
        body: {
          message: 'name must be at most 200 characters',
          code: 'field.tooLong',
          params: { field: 'name', max: 200 },
        },
      },
    });
    const store = makeStore(loggedInState(admin));
    setupI18n('es');
    await i18n.changeLanguage('es');
    const result = await store.dispatch(probeApi.endpoints.probe.initiate());
    expect(requests[0]!.headers.get('accept-language')).toBe('es');
    expect(result.error).toMatchObject({ status: 400, code: 'field.tooLong', params: { field: 'name', max: 200 } });
    expect(apiErrorMessage(result.error)).toBe('«Nombre» admite como máximo 200 caracteres.');
    await i18n.changeLanguage('en');
    expect(apiErrorMessage(result.error)).toBe('Name must be at most 200 characters.');
    await i18n.changeLanguage('es');
  });

  it("falls back to the server's message for a code the client does not know", () => {
    setupI18n('es');
    const error = { status: 409, code: 'future.code', message: 'Mensaje del servidor' };
    expect(apiErrorMessage(error)).toBe('Mensaje del servidor');
  });

  it('falls back to the status text when the answer has no message', async () => {
    mockApi({ 'GET /api/probe': { status: 500, statusText: 'Internal Server Error', body: {} } });
    const store = makeStore(loggedInState(admin));
    const result = await store.dispatch(probeApi.endpoints.probe.initiate());
    expect(result.error).toEqual({ status: 500, message: 'Internal Server Error' });
  });

  it('reads a plain-text answer (delete calls answer text)', async () => {
    mockApi({ 'GET /api/probe': { body: 'Deleted', text: true } });
    const store = makeStore(loggedInState(admin));
    const result = await store.dispatch(probeApi.endpoints.probe.initiate());
    expect(result.data).toBe('Deleted');
  });

  it('reports a network failure without a message', async () => {
    const store = makeStore(loggedInState(admin));
    const result = await store.dispatch(probeApi.endpoints.probe.initiate());
    expect(result.error).toMatchObject({ status: 'FETCH_ERROR' });
    expect(apiErrorMessage(result.error)).toBeUndefined();
  });

  it('logs out when the server no longer accepts the session (401)', async () => {
    mockApi({ 'GET /api/probe': { status: 401, body: { message: 'Invalid token' } } });
    const store = makeStore(loggedInState(admin));
    await store.dispatch(probeApi.endpoints.probe.initiate());
    expect(store.getState().session).toEqual({ token: null, user: null, originalToken: null, originalUser: null });
    expect(store.getState().toasts.items).toMatchObject([{ kind: 'error', messageKey: 'common.sessionExpired' }]);
  });

  it('does not log out on a failed login', async () => {
    mockApi({ 'POST /api/login': { status: 401, body: { message: 'Invalid credentials' } } });
    const store = makeStore(loggedInState(admin));
    const result = await store.dispatch(probeApi.endpoints.login.initiate());
    expect(result).toMatchObject({ error: { status: 401, message: 'Invalid credentials' } });
    expect(store.getState().session.user).toEqual(admin);
  });

  it('does not log out on a 403', async () => {
    mockApi({ 'GET /api/probe': { status: 403, body: { message: 'Forbidden' } } });
    const store = makeStore(loggedInState(admin));
    await store.dispatch(probeApi.endpoints.probe.initiate());
    expect(store.getState().session.user).toEqual(admin);
  });
});
