// A point of sale's API keys (admin): docs/integration.md.
import { api } from '../../../app/api';
import type { ApiKey, NewApiKey } from '../../../lib/types';

const LIST = { type: 'ApiKey', id: 'LIST' } as const;

export const apiKeysApi = api.injectEndpoints({
  endpoints: (build) => ({
    getApiKeys: build.query<ApiKey[], void>({
      query: () => '/api-keys',
      providesTags: (list) => [LIST, ...(list ?? []).map((key) => ({ type: 'ApiKey' as const, id: key.id }))],
    }),
    createApiKey: build.mutation<NewApiKey, { name: string; posId: number }>({
      query: (body) => ({ url: '/api-keys', method: 'POST', body }),
      invalidatesTags: [LIST],
    }),
    revokeApiKey: build.mutation<void, number>({
      query: (id) => ({ url: `/api-keys/${id}`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, id) => [LIST, { type: 'ApiKey', id }],
    }),
  }),
});

export const { useGetApiKeysQuery, useCreateApiKeyMutation, useRevokeApiKeyMutation } = apiKeysApi;
