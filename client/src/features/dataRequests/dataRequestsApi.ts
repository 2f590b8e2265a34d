// Data holders' requests under Ley 1581 (docs/privacy.md): GET/POST /api/data-requests,
// PUT /api/data-requests/{id} and the dashboard's GET /api/data-requests/due.

import { api, listTags } from '../../app/api';
import type { DataRequest, DataRequestInput, DataRequestPage, DataRequestUpdate } from '../../lib/types';

export type RequestStatus = 'open' | 'incomplete' | 'answered' | 'closed';
export type RequestKind = 'consulta' | 'reclamo';

export interface ListArgs {
  status: RequestStatus | '';
  kind: RequestKind | '';
  page: number;
  pageSize: number;
}

export const dataRequestsApi = api.injectEndpoints({
  endpoints: (build) => ({
    listDataRequests: build.query<DataRequestPage, ListArgs>({
      query: ({ status, kind, page, pageSize }) => {
        const params: Record<string, string> = { page: String(page), pageSize: String(pageSize) };
        if (status) params.status = status;
        if (kind) params.kind = kind;
        return { url: '/data-requests', params };
      },
      providesTags: (result) => listTags('DataRequest', result?.items),
    }),
    getDueDataRequests: build.query<DataRequest[], void>({
      query: () => '/data-requests/due',
      providesTags: (result) => listTags('DataRequest', result),
    }),
    createDataRequest: build.mutation<DataRequest, DataRequestInput>({
      query: (body) => ({ url: '/data-requests', method: 'POST', body }),
      // A reclamo marks its customer "reclamo en trámite".
      invalidatesTags: [{ type: 'DataRequest', id: 'LIST' }, { type: 'Customer', id: 'LIST' }],
    }),
    updateDataRequest: build.mutation<DataRequest, DataRequestUpdate & { id: number }>({
      query: ({ id, ...body }) => ({ url: `/data-requests/${id}`, method: 'PUT', body }),
      invalidatesTags: (_result, _error, { id }) => [
        { type: 'DataRequest', id: 'LIST' },
        { type: 'DataRequest', id },
        { type: 'Customer', id: 'LIST' },
      ],
    }),
  }),
});

export const {
  useListDataRequestsQuery,
  useGetDueDataRequestsQuery,
  useCreateDataRequestMutation,
  useUpdateDataRequestMutation,
} = dataRequestsApi;
