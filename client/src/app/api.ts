// The one RTK Query API of the client. Features add their endpoints with
// `api.injectEndpoints`; nothing else in the client talks to the server.

import {
  createApi,
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import { sessionEnded, type SessionState } from './session';
import { toastShown } from './toasts';

/** The error every endpoint rejects with: the HTTP status and the server's message, if any. */
export interface ApiError {
  status: number | 'FETCH_ERROR' | 'PARSING_ERROR' | 'TIMEOUT_ERROR' | 'CUSTOM_ERROR';
  message?: string;
}

export const TAG_TYPES = [
  'Company',
  'Settings',
  'User',
  'Pos',
  'Product',
  'Category',
  'Customer',
  'Transaction',
  'Stats',
] as const;

/**
 * Endpoints whose 401 does not mean "the session is over": a failed login, and a void whose
 * supervisor credentials were wrong.
 */
const SESSION_NEUTRAL_ENDPOINTS = new Set(['login', 'voidTransaction']);

const API_PREFIX = /^API Error:\s*/;

/** Same-origin API root (absolute, so it also works where fetch needs a full URL). */
function apiBaseUrl(): string {
  const origin = typeof window !== 'undefined' && window.location?.origin ? window.location.origin : '';
  return `${origin}/api`;
}

export function cleanMessage(message: string): string {
  return message.replace(API_PREFIX, '').trim();
}

/** Reads `message` from a JSON error answer, falling back to the HTTP status text. */
export function toApiError(error: FetchBaseQueryError, response?: Response): ApiError {
  const data = 'data' in error ? error.data : undefined;
  let message: string | undefined;
  if (data && typeof data === 'object' && 'message' in data && typeof data.message === 'string') {
    message = data.message;
  } else if (typeof data === 'string' && data.trim() !== '' && !data.trimStart().startsWith('<')) {
    message = data;
  } else if (response?.statusText) {
    message = response.statusText;
  }
  const cleaned = message ? cleanMessage(message) : '';
  const status = error.status === 'PARSING_ERROR' ? error.originalStatus : error.status;
  return cleaned ? { status, message: cleaned } : { status };
}

const rawBaseQuery = fetchBaseQuery({
  baseUrl: apiBaseUrl(),
  responseHandler: 'content-type',
  prepareHeaders: (headers, { getState }) => {
    const token = (getState() as { session: SessionState }).session.token;
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return headers;
  },
});

export const baseQuery: BaseQueryFn<string | FetchArgs, unknown, ApiError> = async (args, api, extraOptions) => {
  const sentToken = (api.getState() as { session: SessionState }).session.token;
  const result = await rawBaseQuery(args, api, extraOptions);
  if (!result.error) return { data: result.data, meta: result.meta };

  const error = toApiError(result.error, result.meta?.response);
  const stillSameSession = (api.getState() as { session: SessionState }).session.token === sentToken;
  if (error.status === 401 && sentToken && stillSameSession && !SESSION_NEUTRAL_ENDPOINTS.has(api.endpoint)) {
    api.dispatch(sessionEnded());
    api.dispatch(toastShown('error', { messageKey: 'common.sessionExpired' }));
  }
  return { error, meta: result.meta };
};

export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: TAG_TYPES,
  endpoints: () => ({}),
});

/** The server's message of a failed call (already stripped of 'API Error: '), if it sent one. */
export function apiErrorMessage(error: unknown): string | undefined {
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') {
    return error.message || undefined;
  }
  return undefined;
}

export function apiErrorStatus(error: unknown): ApiError['status'] | undefined {
  if (error && typeof error === 'object' && 'status' in error) {
    const status = (error as { status: unknown }).status;
    if (typeof status === 'number' || typeof status === 'string') return status as ApiError['status'];
  }
  return undefined;
}

/** Tags for a list: one per id plus the list itself. */
export function listTags<T extends (typeof TAG_TYPES)[number]>(
  type: T,
  items: readonly { id: number | string }[] | undefined,
): ({ type: T; id: number | string })[] {
  return [{ type, id: 'LIST' }, ...(items ?? []).map((item) => ({ type, id: item.id }))];
}
