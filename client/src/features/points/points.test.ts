// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { makeProduct, makeTransaction } from '../../test/pointsFixtures';
import {
  canReprint,
  canSubmitRedeem,
  canVoid,
  equivalentValue,
  isVoidable,
  MAX_PRODUCTS_WITHOUT_SEARCH,
  parsePoints,
  redeemableProducts,
  sameUsername,
  validateInvoiceAmount,
  validateRedeemPoints,
  voidNeedsSupervisor,
} from './points';

const names = (products: { name: string }[]) => products.map((p) => p.name);

describe('redeemable products', () => {
  const cafe = makeProduct({ name: 'Café', pointsValue: 2800, description: 'Tostado del Huila', categoryId: 1 });
  const taza = makeProduct({ name: 'Taza', pointsValue: 1500, description: 'Con el logo', categoryId: 2 });
  const termo = makeProduct({ name: 'Termo', pointsValue: 4500, categoryId: 2 });
  const audifonos = makeProduct({ name: 'Audífonos', pointsValue: 12000, categoryId: 3 });
  const inactivo = makeProduct({ name: 'Descontinuado', pointsValue: 100, is_active: false });
  const all = [taza, audifonos, inactivo, cafe, termo];

  it('keeps only active products the balance covers, most valuable first', () => {
    expect(names(redeemableProducts(all, 5000))).toEqual(['Termo', 'Café', 'Taza']);
  });

  it('includes a product worth exactly the balance', () => {
    expect(names(redeemableProducts(all, 4500))).toEqual(['Termo', 'Café', 'Taza']);
    expect(names(redeemableProducts(all, 4499))).toEqual(['Café', 'Taza']);
  });

  it('offers nothing to a customer without points', () => {
    expect(redeemableProducts(all, 0)).toEqual([]);
  });

  it('filters by category', () => {
    expect(names(redeemableProducts(all, 20000, { categoryId: 2 }))).toEqual(['Termo', 'Taza']);
    expect(names(redeemableProducts(all, 20000, { categoryId: null }))).toHaveLength(4);
  });

  it('searches names case-insensitively, and descriptions only on the full screen', () => {
    expect(names(redeemableProducts(all, 20000, { search: 'TAZ' }))).toEqual(['Taza']);
    expect(names(redeemableProducts(all, 20000, { search: 'huila' }))).toEqual([]);
    expect(names(redeemableProducts(all, 20000, { search: 'huila', searchDescription: true }))).toEqual(['Café']);
  });

  it('sorts equal values by name', () => {
    const a = makeProduct({ name: 'B', pointsValue: 10 });
    const b = makeProduct({ name: 'A', pointsValue: 10 });
    expect(names(redeemableProducts([a, b], 10))).toEqual(['A', 'B']);
  });

  it('shows at most 10 without search text, and every match with it', () => {
    const many = Array.from({ length: 14 }, (_, i) => makeProduct({ name: `Bono ${i + 1}`, pointsValue: (i + 1) * 10 }));
    const limited = redeemableProducts(many, 1000, { limitWithoutSearch: MAX_PRODUCTS_WITHOUT_SEARCH });
    expect(limited).toHaveLength(10);
    expect(limited[0]?.pointsValue).toBe(140);
    expect(redeemableProducts(many, 1000, { limitWithoutSearch: 10, search: 'bono' })).toHaveLength(14);
    expect(redeemableProducts(many, 1000, { limitWithoutSearch: 10, search: '   ' })).toHaveLength(10);
  });
});

describe('equivalent value', () => {
  it('is the product price when a product is selected', () => {
    expect(equivalentValue(makeProduct({ price: 28000, pointsValue: 2800 }), 2800, 100)).toBe(28000);
  });

  it('is the points divided by the redemption rate otherwise, in whole pesos', () => {
    expect(equivalentValue(null, 1000, 1)).toBe(1000);
    expect(equivalentValue(null, 250, 100)).toBe(2);
    expect(equivalentValue(undefined, 99, 100)).toBe(0);
  });

  it('is zero without valid points or rate', () => {
    expect(equivalentValue(null, Number.NaN, 100)).toBe(0);
    expect(equivalentValue(null, -5, 1)).toBe(0);
    expect(equivalentValue(null, 100, 0)).toBe(0);
  });
});

describe('points validation', () => {
  it('reads whole numbers only', () => {
    expect(parsePoints('150')).toBe(150);
    expect(parsePoints(' 20 ')).toBe(20);
    expect(parsePoints('1.5')).toBeNaN();
    expect(parsePoints('-3')).toBeNaN();
    expect(parsePoints('')).toBeNaN();
    expect(parsePoints('1e3')).toBeNaN();
  });

  it('needs an integer above zero', () => {
    expect(validateRedeemPoints(Number.NaN, 100)).toBe('redeem.errorInvalidPoints');
    expect(validateRedeemPoints(0, 100)).toBe('redeem.errorInvalidPoints');
    expect(validateRedeemPoints(-1, 100)).toBe('redeem.errorInvalidPoints');
    expect(validateRedeemPoints(1.5, 100)).toBe('redeem.errorInvalidPoints');
  });

  it('must not exceed the balance', () => {
    expect(validateRedeemPoints(101, 100)).toBe('redeem.errorNotEnoughPoints');
    expect(validateRedeemPoints(100, 100)).toBeNull();
    expect(validateRedeemPoints(1, 100)).toBeNull();
  });

  it('enables quick redeem with a product or valid points within the balance', () => {
    const product = makeProduct({ pointsValue: 80 });
    expect(canSubmitRedeem(product, Number.NaN, 100)).toBe(true);
    expect(canSubmitRedeem(makeProduct({ pointsValue: 120 }), Number.NaN, 100)).toBe(false);
    expect(canSubmitRedeem(null, 50, 100)).toBe(true);
    expect(canSubmitRedeem(null, 0, 100)).toBe(false);
    expect(canSubmitRedeem(null, 101, 100)).toBe(false);
    expect(canSubmitRedeem(null, Number.NaN, 100)).toBe(false);
  });

  it('needs an invoice amount of digits above zero', () => {
    expect(validateInvoiceAmount('')).toBe('dashboard.errorInvalidInvoiceAmount');
    expect(validateInvoiceAmount('0')).toBe('dashboard.errorInvalidInvoiceAmount');
    expect(validateInvoiceAmount('000')).toBe('dashboard.errorInvalidInvoiceAmount');
    expect(validateInvoiceAmount('12a')).toBe('dashboard.errorInvalidInvoiceAmount');
    expect(validateInvoiceAmount('99999999999999999999')).toBe('dashboard.errorInvalidInvoiceAmount');
    expect(validateInvoiceAmount('50000')).toBeNull();
  });
});

describe('void and reprint', () => {
  const cajero = { role: 'cajero' as const, username: 'caja1' };
  const supervisor = { role: 'supervisor' as const, username: 'super' };
  const admin = { role: 'admin' as const, username: 'admin' };

  it('voids only accreditations and redemptions not voided yet', () => {
    expect(isVoidable(makeTransaction({ type: 'accreditation' }))).toBe(true);
    expect(isVoidable(makeTransaction({ type: 'redemption' }))).toBe(true);
    expect(isVoidable(makeTransaction({ type: 'expiration' }))).toBe(false);
    expect(isVoidable(makeTransaction({ type: 'cancellation' }))).toBe(false);
    expect(isVoidable(makeTransaction({ is_voided: true }))).toBe(false);
  });

  it('lets a cajero void own transactions only; supervisors and admins any', () => {
    const own = makeTransaction({ cashierUsername: 'caja1' });
    const other = makeTransaction({ cashierUsername: 'caja2' });
    expect(canVoid(own, cajero)).toBe(true);
    expect(canVoid(makeTransaction({ cashierUsername: 'Caja1@demo' }), cajero)).toBe(true);
    expect(canVoid(other, cajero)).toBe(false);
    expect(canVoid(other, supervisor)).toBe(true);
    expect(canVoid(other, admin)).toBe(true);
    expect(canVoid(makeTransaction({ type: 'expiration', cashierUsername: 'system' }), admin)).toBe(false);
  });

  it('asks a cajero for supervisor credentials', () => {
    expect(voidNeedsSupervisor(cajero)).toBe(true);
    expect(voidNeedsSupervisor(supervisor)).toBe(false);
    expect(voidNeedsSupervisor(admin)).toBe(false);
  });

  it('reprints redemptions that are not voided', () => {
    expect(canReprint(makeTransaction({ type: 'redemption' }))).toBe(true);
    expect(canReprint(makeTransaction({ type: 'redemption', is_voided: true }))).toBe(false);
    expect(canReprint(makeTransaction({ type: 'accreditation' }))).toBe(false);
  });

  it('compares usernames without case or company prefix', () => {
    expect(sameUsername('Caja1', 'caja1@demo')).toBe(true);
    expect(sameUsername('caja1', 'caja2')).toBe(false);
    expect(sameUsername(null, 'caja1')).toBe(false);
  });
});
