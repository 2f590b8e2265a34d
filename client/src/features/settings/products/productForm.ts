import type { TKey } from '../../../i18n/keys';
import type { Product } from '../../../lib/types';
import type { ProductInput } from './productsApi';

export interface ProductFormValues {
  code: string;
  name: string;
  /** The chosen category's id as the select holds it; '' for none. */
  categoryId: string;
  description: string;
  price: number;
  pointsValue: number;
  imageUrl: string;
  isActive: boolean;
}

export const EMPTY_PRODUCT: ProductFormValues = {
  code: '',
  name: '',
  categoryId: '',
  description: '',
  price: 0,
  pointsValue: 0,
  imageUrl: '',
  isActive: true,
};

export function productFormValues(product: Product): ProductFormValues {
  return {
    code: product.code,
    name: product.name,
    categoryId: product.categoryId != null ? String(product.categoryId) : '',
    description: product.description ?? '',
    price: product.price,
    pointsValue: product.pointsValue,
    imageUrl: product.imageUrl ?? '',
    isActive: product.is_active,
  };
}

export type ProductCheck = { ok: true; body: ProductInput } | { ok: false; error: TKey };

/**
 * Code and name are required, and an active product a points value of at least 1; categoryId goes
 * as a number, or is left out when empty.
 */
export function checkProduct(values: ProductFormValues): ProductCheck {
  const code = values.code.trim();
  const name = values.name.trim();
  if (!code || !name) return { ok: false, error: 'products.errorRequired' };
  // The till offers every active product for redemption: it must be worth something.
  if (values.isActive && values.pointsValue < 1) return { ok: false, error: 'products.errorPointsRequired' };
  const categoryId = Number(values.categoryId);
  return {
    ok: true,
    body: {
      code,
      name,
      description: values.description.trim(),
      price: values.price,
      pointsValue: values.pointsValue,
      imageUrl: values.imageUrl.trim(),
      is_active: values.isActive,
      ...(values.categoryId !== '' && Number.isInteger(categoryId) ? { categoryId } : {}),
    },
  };
}
