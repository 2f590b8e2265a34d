import { api } from '../../../app/api';
import { entityEndpoints } from '../../../app/entityEndpoints';
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
  endpoints: (build) => {
    const products = entityEndpoints(build, { path: '/products', tag: 'Product' });
    return {
      /** Every product, inactive ones included (admin and supervisor). */
      getAllProducts: products.list<Product>('/products/all'),
      createProduct: products.create<Product, ProductInput>(),
      // Activating or deactivating changes which lists hold the product.
      updateProduct: products.update<Product, { id: number } & ProductInput>([{ type: 'Product', id: 'LIST' }]),
      deleteProduct: products.remove<DeleteResult>(),
      getProductUsage: products.usage<{ transactions: number }>(),
      reactivateProduct: products.reactivate<Product>(),
    };
  },
});

export const {
  useGetAllProductsQuery,
  useCreateProductMutation,
  useUpdateProductMutation,
  useDeleteProductMutation,
  useGetProductUsageQuery,
  useReactivateProductMutation,
} = productsApi;
