import { api, listTags } from '../../../app/api';
import type { CustomerInput } from '../../points';
import type { Customer, Paged } from '../../../lib/types';
import type { DeleteResult } from '../shared/types';

// Adding a customer is shared with the till (enrolling a customer the lookup did not find).
export { useCreateCustomerMutation, type CustomerInput } from '../../points';

export interface CustomerSearch {
  text: string;
  page: number;
  pageSize: number;
  /** The inactive customers instead of the active ones. */
  inactive?: boolean;
}

export const customersApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** One page of the active (or inactive) customers whose name matches `text`, sorted by name. */
    searchCustomers: build.query<Paged<Customer>, CustomerSearch>({
      query: ({ text, page, pageSize, inactive }) => ({
        url: '/customers/search',
        params: inactive ? { text, page, pageSize, status: 'inactive' } : { text, page, pageSize },
      }),
      providesTags: (result) => listTags('Customer', result?.items),
    }),
    updateCustomer: build.mutation<Customer, { id: number } & CustomerInput>({
      query: ({ id, ...body }) => ({ url: `/customers/${id}`, method: 'PUT', body }),
      // A new name can move the customer to another page of the search.
      invalidatesTags: (_result, _error, { id }) => [
        { type: 'Customer', id },
        { type: 'Customer', id: 'LIST' },
      ],
    }),
    deleteCustomer: build.mutation<DeleteResult, number>({
      query: (id) => ({ url: `/customers/${id}`, method: 'DELETE' }),
      // The dashboard counts active customers and their points.
      invalidatesTags: (_result, _error, id) => [
        { type: 'Customer', id },
        { type: 'Customer', id: 'LIST' },
        { type: 'Stats', id: 'DASHBOARD' },
      ],
    }),
    getCustomerUsage: build.query<{ transactions: number }, number>({
      query: (id) => `/customers/${id}/usage`,
      keepUnusedDataFor: 0,
    }),
    reactivateCustomer: build.mutation<Customer, number>({
      query: (id) => ({ url: `/customers/${id}/reactivate`, method: 'POST' }),
      invalidatesTags: (_result, _error, id) => [
        { type: 'Customer', id },
        { type: 'Customer', id: 'LIST' },
        { type: 'Stats', id: 'DASHBOARD' },
      ],
    }),
  }),
});

export const {
  useSearchCustomersQuery,
  useUpdateCustomerMutation,
  useDeleteCustomerMutation,
  useGetCustomerUsageQuery,
  useReactivateCustomerMutation,
} = customersApi;
