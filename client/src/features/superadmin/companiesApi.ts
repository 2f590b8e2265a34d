import { api, listTags } from '../../app/api';
import type { AuthResponse, Company } from '../../lib/types';

export interface CompanyDetails {
  name: string;
  taxId: string;
  logoUrl: string;
  businessName: string;
  address: string;
  phone: string;
}

export interface NewCompany extends CompanyDetails {
  prefix: string;
  adminPassword: string;
}

export const companiesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCompanies: build.query<Company[], void>({
      query: () => '/super/companies',
      providesTags: (result) => listTags('Company', result),
    }),
    createCompany: build.mutation<Company, NewCompany>({
      query: (body) => ({ url: '/super/companies', method: 'POST', body }),
      invalidatesTags: [{ type: 'Company', id: 'LIST' }],
    }),
    updateCompany: build.mutation<Company, { id: number } & CompanyDetails>({
      query: ({ id, ...body }) => ({ url: `/super/companies/${id}`, method: 'PUT', body }),
      invalidatesTags: (_result, _error, { id }) => [{ type: 'Company', id }],
    }),
    deleteCompany: build.mutation<unknown, number>({
      query: (id) => ({ url: `/super/companies/${id}`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, id) => [
        { type: 'Company', id },
        { type: 'Company', id: 'LIST' },
      ],
    }),
    impersonate: build.mutation<AuthResponse, number>({
      query: (companyId) => ({ url: '/super/impersonate', method: 'POST', body: { companyId } }),
    }),
  }),
});

export const {
  useGetCompaniesQuery,
  useCreateCompanyMutation,
  useUpdateCompanyMutation,
  useDeleteCompanyMutation,
  useImpersonateMutation,
} = companiesApi;

/** The prefix as typed, forced to lowercase letters and digits. */
export function sanitizePrefix(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The company admin's login: admin@prefix. */
export function adminLogin(prefix: string): string {
  return `admin@${prefix}`;
}
