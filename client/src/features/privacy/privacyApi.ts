// The company's privacy notice (docs/privacy.md): every version (GET /api/privacy-notices), the one
// in force (GET /api/privacy-notices/current), publishing a new one (POST, admins), and the public
// page's read without login (GET /api/public/{prefix}/privacy).

import type { components } from '../../api/schema';
import { api } from '../../app/api';

export type PrivacyNotice = components['schemas']['PrivacyNotice'];
export type PublicNotice = components['schemas']['PublicNotice'];
export type NoticePurpose = components['schemas']['Purpose'];
export type CustomerConsents = components['schemas']['CustomerConsents'];
export type ConsentsUpdate = components['schemas']['ConsentsUpdate'];

/** A new version: its whole text and its purposes (`loyalty` among them). */
export interface PublishNoticeInput {
  body: string;
  purposes: { key: string; description: string }[];
}

/** A customer's authorization as an enrolment sends it. */
export interface ConsentInput {
  noticeVersion: number;
  purposes: string[];
  channel: 'store' | 'web' | 'import';
}

const NOTICES = [{ type: 'PrivacyNotice' as const, id: 'LIST' }];

export const privacyApi = api.enhanceEndpoints({ addTagTypes: ['PrivacyNotice', 'CustomerConsents'] }).injectEndpoints({
  endpoints: (build) => ({
    getPrivacyNotices: build.query<PrivacyNotice[], void>({ query: () => '/privacy-notices', providesTags: NOTICES }),
    getCurrentNotice: build.query<PrivacyNotice, void>({ query: () => '/privacy-notices/current', providesTags: NOTICES }),
    getPublicNotice: build.query<PublicNotice, string>({
      query: (prefix) => `/public/${encodeURIComponent(prefix)}/privacy`,
    }),
    /** A customer's current answers and every answer recorded (GET /api/customers/{id}/consents). */
    getCustomerConsents: build.query<CustomerConsents, number>({
      query: (id) => `/customers/${id}/consents`,
      providesTags: (_result, _error, id) => [{ type: 'CustomerConsents', id }],
    }),
    /** Grants or revokes purposes; revoking `loyalty` files a reclamo and marks the customer. */
    updateCustomerConsents: build.mutation<CustomerConsents, { id: number; body: ConsentsUpdate }>({
      query: ({ id, body }) => ({ url: `/customers/${id}/consents`, method: 'PUT', body }),
      invalidatesTags: (_result, _error, { id }) => [
        { type: 'CustomerConsents', id },
        { type: 'Customer', id: 'LIST' },
      ],
    }),
    publishNotice: build.mutation<PrivacyNotice, PublishNoticeInput>({
      query: (body) => ({ url: '/privacy-notices', method: 'POST', body }),
      invalidatesTags: NOTICES,
    }),
  }),
});

export const {
  useGetPrivacyNoticesQuery,
  useGetCurrentNoticeQuery,
  useGetPublicNoticeQuery,
  usePublishNoticeMutation,
  useGetCustomerConsentsQuery,
  useUpdateCustomerConsentsMutation,
} = privacyApi;
