import { api } from '../../app/api';
import { entityEndpoints } from '../../app/entityEndpoints';
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
  endpoints: (build) => {
    const companies = entityEndpoints(build, { path: '/super/companies', tag: 'Company' });
    return {
      getCompanies: companies.list<Company>(),
      createCompany: companies.create<Company, NewCompany>(),
      updateCompany: companies.update<Company, { id: number } & CompanyDetails>(),
      deleteCompany: companies.remove<unknown>(),
      impersonate: build.mutation<AuthResponse, number>({
        query: (companyId) => ({ url: '/super/impersonate', method: 'POST', body: { companyId } }),
      }),
    };
  },
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
