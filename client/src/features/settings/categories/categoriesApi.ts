// The list itself (GET /api/categories) is tenant data loaded at login: app/tenantApi.ts.
import { api } from '../../../app/api';
import type { Category } from '../../../lib/types';
import type { DeleteResult } from '../shared/types';

export interface CategoryInput {
  name: string;
  icon: string;
}

export const categoriesApi = api.injectEndpoints({
  endpoints: (build) => ({
    createCategory: build.mutation<Category, CategoryInput>({
      query: (body) => ({ url: '/categories', method: 'POST', body }),
      invalidatesTags: [{ type: 'Category', id: 'LIST' }],
    }),
    updateCategory: build.mutation<Category, { id: number } & CategoryInput>({
      query: ({ id, ...body }) => ({ url: `/categories/${id}`, method: 'PUT', body }),
      // Products show their category's name.
      invalidatesTags: (_result, _error, { id }) => [
        { type: 'Category', id },
        { type: 'Product', id: 'LIST' },
      ],
    }),
    deleteCategory: build.mutation<DeleteResult, number>({
      query: (id) => ({ url: `/categories/${id}`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, id) => [
        { type: 'Category', id: 'INACTIVE' },
        { type: 'Category', id },
        { type: 'Category', id: 'LIST' },
        { type: 'Product', id: 'LIST' },
      ],
    }),
    getCategoryUsage: build.query<{ products: number }, number>({
      query: (id) => `/categories/${id}/usage`,
      keepUnusedDataFor: 0,
    }),
    /** The inactive records, for the list's 'show inactive' filter. */
    getInactiveCategories: build.query<Category[], void>({
      query: () => ({ url: '/categories', params: { status: 'inactive' } }),
      providesTags: [{ type: 'Category', id: 'INACTIVE' }],
    }),
    reactivateCategory: build.mutation<Category, number>({
      query: (id) => ({ url: `/categories/${id}/reactivate`, method: 'POST' }),
      invalidatesTags: [
        { type: 'Category', id: 'LIST' },
        { type: 'Category', id: 'INACTIVE' },
        { type: 'Product', id: 'LIST' },
      ],
    }),
  }),
});

export const {
  useCreateCategoryMutation,
  useUpdateCategoryMutation,
  useDeleteCategoryMutation,
  useGetCategoryUsageQuery,
  useGetInactiveCategoriesQuery,
  useReactivateCategoryMutation,
} = categoriesApi;
