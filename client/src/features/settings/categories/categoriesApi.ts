// The list itself (GET /api/categories) is tenant data loaded at login: app/tenantApi.ts.
import { api } from '../../../app/api';
import { entityEndpoints } from '../../../app/entityEndpoints';
import type { Category } from '../../../lib/types';
import type { DeleteResult } from '../shared/types';

export interface CategoryInput {
  name: string;
  icon: string;
}

/** Products show their category's name. */
const productLists = [{ type: 'Product', id: 'LIST' }] as const;

export const categoriesApi = api.injectEndpoints({
  endpoints: (build) => {
    const categories = entityEndpoints(build, { path: '/categories', tag: 'Category', inactiveList: true });
    return {
      createCategory: categories.create<Category, CategoryInput>(),
      updateCategory: categories.update<Category, { id: number } & CategoryInput>(productLists),
      deleteCategory: categories.remove<DeleteResult>(productLists),
      getCategoryUsage: categories.usage<{ products: number }>(),
      getInactiveCategories: categories.inactive<Category>(),
      reactivateCategory: categories.reactivate<Category>(productLists),
    };
  },
});

export const {
  useCreateCategoryMutation,
  useUpdateCategoryMutation,
  useDeleteCategoryMutation,
  useGetCategoryUsageQuery,
  useGetInactiveCategoriesQuery,
  useReactivateCategoryMutation,
} = categoriesApi;
