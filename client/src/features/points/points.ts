// Rules of the accredit and redeem screens (docs/screens.md, "The till"). Pure functions:
// the screens, the quick panels and their tests all decide through these.

import type { TKey } from '../../i18n/keys';
import type { Product, Transaction, User } from '../../lib/types';
import { matchesSearch } from '../../lib/paging';

/** The full redeem screen shows at most this many products while there is no search text. */
export const MAX_PRODUCTS_WITHOUT_SEARCH = 10;

export interface RedeemableFilter {
  /** Only this category (undefined or null: every category). */
  categoryId?: number | null;
  search?: string;
  /** The full screen also searches descriptions; the quick panel searches names only. */
  searchDescription?: boolean;
  /** At most this many products when there is no search text (undefined: no limit). */
  limitWithoutSearch?: number;
}

/**
 * Products a customer with `balance` points can take: active, pointsValue at most the balance,
 * most valuable first (then by name), optionally one category and a case-insensitive search.
 */
export function redeemableProducts(
  products: readonly Product[],
  balance: number,
  { categoryId, search = '', searchDescription = false, limitWithoutSearch }: RedeemableFilter = {},
): Product[] {
  const matches = products
    .filter((product) => product.is_active && product.pointsValue <= balance)
    .filter((product) => categoryId == null || product.categoryId === categoryId)
    .filter((product) =>
      searchDescription ? matchesSearch(search, product.name, product.description) : matchesSearch(search, product.name),
    )
    .sort((a, b) => b.pointsValue - a.pointsValue || a.name.localeCompare(b.name, 'es'));
  const searching = search.trim() !== '';
  return !searching && limitWithoutSearch != null ? matches.slice(0, limitWithoutSearch) : matches;
}

/**
 * The COP value of a redemption: the product's price when a product is chosen, otherwise the
 * points divided by the redemption rate (rounded down to whole pesos, as the server does).
 */
export function equivalentValue(product: Product | null | undefined, points: number, redemptionRate: number): number {
  if (product) return product.price;
  if (!Number.isFinite(points) || points <= 0 || !Number.isFinite(redemptionRate) || redemptionRate <= 0) return 0;
  return Math.floor(points / redemptionRate);
}

/** The points typed in the redeem form as a whole number, or NaN when they are not one. */
export function parsePoints(text: string): number {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return Number.NaN;
  return Number(trimmed);
}

/** Why these points cannot be redeemed, or null when they can. */
export function validateRedeemPoints(points: number, balance: number): TKey | null {
  if (!Number.isSafeInteger(points) || points <= 0) return 'redeem.errorInvalidPoints';
  if (points > balance) return 'redeem.errorNotEnoughPoints';
  return null;
}

/** Quick redeem submits only with a product selected, or valid points within the balance. */
export function canSubmitRedeem(product: Product | null | undefined, points: number, balance: number): boolean {
  if (product) return product.pointsValue <= balance;
  return validateRedeemPoints(points, balance) === null;
}

/** The invoice amount as typed (digits only): a whole number of pesos greater than zero. */
export function validateInvoiceAmount(digits: string): TKey | null {
  if (!/^\d+$/.test(digits)) return 'dashboard.errorInvalidInvoiceAmount';
  const amount = Number(digits);
  return Number.isSafeInteger(amount) && amount > 0 ? null : 'dashboard.errorInvalidInvoiceAmount';
}

/** Expiration, cancellation and return rows, and rows already voided, cannot be voided. */
export function isVoidable(transaction: Pick<Transaction, 'is_voided' | 'type'>): boolean {
  return !transaction.is_voided && (transaction.type === 'accreditation' || transaction.type === 'redemption');
}

/**
 * Who sees the return button on a row: an accreditation that is not voided, to those who may void
 * it (a cajero on own rows, with a supervisor's credentials, as for a void).
 */
export function canReturn(transaction: Transaction, user: Pick<User, 'role' | 'username'>): boolean {
  return transaction.type === 'accreditation' && canVoid(transaction, user);
}

/** Who sees the void button on a row: supervisors and admins on any, a cajero on own rows. */
export function canVoid(transaction: Transaction, user: Pick<User, 'role' | 'username'>): boolean {
  if (!isVoidable(transaction)) return false;
  if (user.role === 'admin' || user.role === 'supervisor') return true;
  return user.role === 'cajero' && sameUsername(transaction.cashierUsername, user.username);
}

/** A cajero confirms a void with a supervisor's (or admin's) username and password. */
export function voidNeedsSupervisor(user: Pick<User, 'role'>): boolean {
  return user.role === 'cajero';
}

/** Only redemptions that are not voided, and returns, have a receipt to reprint. */
export function canReprint(transaction: Pick<Transaction, 'is_voided' | 'type'>): boolean {
  return (transaction.type === 'redemption' || transaction.type === 'return') && !transaction.is_voided;
}

/** Usernames compare without case and without the '@prefix' of the login name. */
export function sameUsername(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  const bare = (name: string) => name.trim().toLowerCase().split('@')[0];
  return bare(a) === bare(b);
}
