import { api, listTags } from '../../../app/api';
import type { Product } from '../../../lib/types';
import type { DeleteResult } from '../shared/types';

/** POST/PUT /api/products; `categoryId` is left out when no category is chosen. */
export interface ProductInput {
  code: string;
  name: string;
  description: string;
  price: number;
  pointsValue: number;
  imageUrl: string;
  is_active: boolean;
  categoryId?: number;
}

export const productsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Every product, inactive ones included (admin and supervisor). */
    getAllProducts: build.query<Product[], void>({
      query: () => '/products/all',
      providesTags: (result) => listTags('Product', result),
    }),
    createProduct: build.mutation<Product, ProductInput>({
      query: (body) => ({ url: '/products', method: 'POST', body }),
      invalidatesTags: [{ type: 'Product', id: 'LIST' }],
    }),
    updateProduct: build.mutation<Product, { id: number; body: ProductInput }>({
      query: ({ id, body }) => ({ url: `/products/${id}`, method: 'PUT', body }),
      // Activating or deactivating changes which lists hold the product.
      invalidatesTags: (_result, _error, { id }) => [
        { type: 'Product', id },
        { type: 'Product', id: 'LIST' },
      ],
    }),
    deleteProduct: build.mutation<DeleteResult, number>({
      query: (id) => ({ url: `/products/${id}`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, id) => [
        { type: 'Product', id },
        { type: 'Product', id: 'LIST' },
      ],
    }),
    getProductUsage: build.query<{ transactions: number }, number>({
      query: (id) => `/products/${id}/usage`,
      keepUnusedDataFor: 0,
    }),
    reactivateProduct: build.mutation<Product, number>({
      query: (id) => ({ url: `/products/${id}/reactivate`, method: 'POST' }),
      invalidatesTags: [{ type: 'Product', id: 'LIST' }],
    }),
  }),
});

export const {
  useGetAllProductsQuery,
  useCreateProductMutation,
  useUpdateProductMutation,
  useDeleteProductMutation,
  useGetProductUsageQuery,
  useReactivateProductMutation,
} = productsApi;
