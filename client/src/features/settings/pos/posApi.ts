// The list itself (GET /api/pos) is tenant data loaded at login: app/tenantApi.ts.
import { api } from '../../../app/api';
import type { PointOfSale } from '../../../lib/types';
import type { DeleteResult } from '../shared/types';

export const posApi = api.injectEndpoints({
  endpoints: (build) => ({
    createPos: build.mutation<PointOfSale, { name: string }>({
      query: (body) => ({ url: '/pos', method: 'POST', body }),
      invalidatesTags: [{ type: 'Pos', id: 'LIST' }],
    }),
    updatePos: build.mutation<PointOfSale, { id: number; name: string }>({
      query: ({ id, ...body }) => ({ url: `/pos/${id}`, method: 'PUT', body }),
      // Users show the name of their point of sale.
      invalidatesTags: (_result, _error, { id }) => [
        { type: 'Pos', id },
        { type: 'User', id: 'LIST' },
      ],
    }),
    deletePos: build.mutation<DeleteResult, number>({
      query: (id) => ({ url: `/pos/${id}`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, id) => [
        { type: 'Pos', id: 'INACTIVE' },
        { type: 'Pos', id },
        { type: 'Pos', id: 'LIST' },
        { type: 'User', id: 'LIST' },
      ],
    }),
    getPosUsage: build.query<{ users: number; transactions: number }, number>({
      query: (id) => `/pos/${id}/usage`,
      keepUnusedDataFor: 0,
    }),
    /** The inactive records, for the list's 'show inactive' filter. */
    getInactivePos: build.query<PointOfSale[], void>({
      query: () => ({ url: '/pos', params: { status: 'inactive' } }),
      providesTags: [{ type: 'Pos', id: 'INACTIVE' }],
    }),
    reactivatePos: build.mutation<PointOfSale, number>({
      query: (id) => ({ url: `/pos/${id}/reactivate`, method: 'POST' }),
      invalidatesTags: [
        { type: 'Pos', id: 'LIST' },
        { type: 'Pos', id: 'INACTIVE' },
        { type: 'User', id: 'LIST' },
      ],
    }),
  }),
});

export const {
  useCreatePosMutation,
  useUpdatePosMutation,
  useDeletePosMutation,
  useGetPosUsageQuery,
  useGetInactivePosQuery,
  useReactivatePosMutation,
} = posApi;
