import { describe, expect, it } from 'vitest';
import { checkProduct, EMPTY_PRODUCT } from './productForm';

describe('product form', () => {
  const named = { ...EMPTY_PRODUCT, code: 'PAN-1', name: 'Pan' };

  it('refuses an active product worth no points, and takes an inactive one', () => {
    expect(checkProduct(named)).toEqual({ ok: false, error: 'products.errorPointsRequired' });
    expect(checkProduct({ ...named, isActive: false }).ok).toBe(true);
    expect(checkProduct({ ...named, pointsValue: 1 }).ok).toBe(true);
  });
});
