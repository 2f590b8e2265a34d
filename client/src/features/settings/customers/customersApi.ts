import { api, listTags } from '../../../app/api';
import { entityEndpoints } from '../../../app/entityEndpoints';
import type { CustomerInput } from '../../points';
import type { Customer, CustomerData, Paged, SuppressResponse } from '../../../lib/types';
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

/** The dashboard counts active customers and their points. */
const dashboardFigures = [{ type: 'Stats', id: 'DASHBOARD' }] as const;

export const customersApi = api.injectEndpoints({
  endpoints: (build) => {
    const customers = entityEndpoints(build, { path: '/customers', tag: 'Customer' });
    return {
      /** One page of the active (or inactive) customers whose name matches `text`, sorted by name. */
      searchCustomers: build.query<Paged<Customer>, CustomerSearch>({
        query: ({ text, page, pageSize, inactive }) => ({
          url: '/customers/search',
          params: inactive ? { text, page, pageSize, status: 'inactive' } : { text, page, pageSize },
        }),
        providesTags: (result) => listTags('Customer', result?.items),
      }),
      // A new name can move the customer to another page of the search.
      updateCustomer: customers.update<Customer, { id: number } & CustomerInput>([{ type: 'Customer', id: 'LIST' }]),
      deleteCustomer: customers.remove<DeleteResult>(dashboardFigures),
      getCustomerUsage: customers.usage<{ transactions: number }>(),
      reactivateCustomer: customers.reactivate<Customer>(dashboardFigures),
      /** Everything held about a customer; the server records each export in the audit trail. */
      getCustomerData: build.query<CustomerData, number>({
        query: (id) => `/customers/${id}/data`,
        // Every look is an export of its own: nothing kept for the next visit.
        keepUnusedDataFor: 0,
      }),
      /** Deletes or anonymises a customer for good; its forfeited points leave the figures. */
      suppressCustomer: build.mutation<SuppressResponse, number>({
        query: (id) => ({ url: `/customers/${id}/suppress`, method: 'POST' }),
        invalidatesTags: (_result, _error, id) => [
          { type: 'Customer', id },
          { type: 'Customer', id: 'LIST' },
          { type: 'Transaction', id: 'LIST' },
          { type: 'DataRequest', id: 'LIST' },
          ...dashboardFigures,
        ],
      }),
    };
  },
});

export const {
  useSearchCustomersQuery,
  useUpdateCustomerMutation,
  useDeleteCustomerMutation,
  useGetCustomerUsageQuery,
  useReactivateCustomerMutation,
  useGetCustomerDataQuery,
  useSuppressCustomerMutation,
} = customersApi;
