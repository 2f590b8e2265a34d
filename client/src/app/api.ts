// The one RTK Query API of the client. Features add their endpoints with
// `api.injectEndpoints`; nothing else in the client talks to the server.

import {
  createApi,
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import { i18n } from '../i18n';
import { formatNumber, isLocale } from '../lib/format';
import { sessionEnded, type SessionState } from './session';
import { toastShown } from './toasts';

/** The values a server message speaks of (`field`, `max`, ...). */
export type ErrorParams = Record<string, string | number | boolean | null>;

/**
 * The error every endpoint rejects with: the HTTP status and, when the server sent one, its
 * message (already in the interface's language), the message's stable code and parameters.
 */
export interface ApiError {
  status: number | 'FETCH_ERROR' | 'PARSING_ERROR' | 'TIMEOUT_ERROR' | 'CUSTOM_ERROR';
  message?: string;
  code?: string;
  params?: ErrorParams;
}

export const TAG_TYPES = [
  'Company',
  'Alert',
  'Settings',
  'User',
  'Pos',
  'Product',
  'Category',
  'Customer',
  'Transaction',
  'Stats',
  'DataRequest',
  'ApiKey',
  'Webhook',
] as const;

export type TagType = (typeof TAG_TYPES)[number];

/**
 * Endpoints whose 401 does not mean "the session is over": a failed login, and a void, a return
 * or an approved accreditation whose supervisor credentials were wrong.
 */
const SESSION_NEUTRAL_ENDPOINTS = new Set(['login', 'voidTransaction', 'returnTransaction', 'accreditApproved']);

const API_PREFIX = /^API Error:\s*/;

/** Same-origin API root (absolute, so it also works where fetch needs a full URL). */
function apiBaseUrl(): string {
  const origin = typeof window !== 'undefined' && window.location?.origin ? window.location.origin : '';
  return `${origin}/api`;
}

export function cleanMessage(message: string): string {
  return message.replace(API_PREFIX, '').trim();
}

/** Reads `message`, `code` and `params` from a JSON error answer, falling back to the HTTP status text. */
export function toApiError(error: FetchBaseQueryError, response?: Response): ApiError {
  const data = 'data' in error ? error.data : undefined;
  let message: string | undefined;
  let code: string | undefined;
  let params: ErrorParams | undefined;
  if (data && typeof data === 'object' && 'message' in data && typeof data.message === 'string') {
    message = data.message;
    if ('code' in data && typeof data.code === 'string') code = data.code;
    if ('params' in data && data.params && typeof data.params === 'object') params = data.params as ErrorParams;
  } else if (typeof data === 'string' && data.trim() !== '' && !data.trimStart().startsWith('<')) {
    message = data;
  } else if (response?.statusText) {
    message = response.statusText;
  }
  const cleaned = message ? cleanMessage(message) : '';
  const status = error.status === 'PARSING_ERROR' ? error.originalStatus : error.status;
  return {
    status,
    ...(cleaned ? { message: cleaned } : {}),
    ...(code ? { code } : {}),
    ...(params ? { params } : {}),
  };
}

const rawBaseQuery = fetchBaseQuery({
  baseUrl: apiBaseUrl(),
  responseHandler: 'content-type',
  prepareHeaders: (headers, { getState }) => {
    const token = (getState() as { session: SessionState }).session.token;
    if (token) headers.set('Authorization', `Bearer ${token}`);
    // The server writes its messages in the interface's language.
    headers.set('Accept-Language', i18n.language === 'en' ? 'en' : 'es');
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

/**
 * What a failed call says, in the interface's language: the client's own translation of the
 * server's code (`errors.<code>`, with a field named by `fields.<name>`), else the server's
 * message (already stripped of 'API Error: '), if it sent one.
 */
export function apiErrorMessage(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const { code, params, message } = error as ApiError;
  const key = `errors.${code}`;
  if (code && i18n.exists(key)) {
    const locale = isLocale(i18n.language) ? i18n.language : 'es';
    const values: Record<string, string> = {};
    for (const [name, value] of Object.entries(params ?? {})) {
      if (name === 'field' && typeof value === 'string' && i18n.exists(`fields.${value}`)) {
        values[name] = i18n.t(`fields.${value}` as never);
      } else if (typeof value === 'number' && Number.isInteger(value) && Math.abs(value) >= 10000) {
        values[name] = formatNumber(value, locale);
      } else {
        values[name] = String(value);
      }
    }
    return i18n.t(key as never, values);
  }
  return typeof message === 'string' && message ? message : undefined;
}

/** The stable code of a failed call's answer (`points.velocityPoints`), if it sent one. */
export function apiErrorCode(error: unknown): string | undefined {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') return error.code;
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
export function listTags<T extends TagType>(
  type: T,
  items: readonly { id: number | string }[] | undefined,
): ({ type: T; id: number | string })[] {
  return [{ type, id: 'LIST' }, ...(items ?? []).map((item) => ({ type, id: item.id }))];
}
