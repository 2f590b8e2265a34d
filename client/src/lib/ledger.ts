// The words for a ledger row. The server stores what happened (the kind, the figures, the product,
// what a cashier wrote), never a sentence: every screen, receipt and export words it here, in the
// reader's language.

import type { TFunction } from 'i18next';
import type { Transaction } from './types';

type Described = Pick<Transaction, 'type' | 'description' | 'invoiceAmount' | 'originalTransactionId'> & {
  productName?: string | null;
};

/**
 * What a row is, in the reader's language: what the cashier wrote when there is a note; else a
 * redemption's product, or the kind with its figures (a purchase's invoice amount, the transaction
 * a cancellation voids, the pesos a return gives back). `currency` writes an amount of pesos.
 */
export function transactionDescription(tx: Described, t: TFunction, currency: (value: number) => string): string {
  const note = tx.description?.trim();
  if (note) return note;
  switch (tx.type) {
    case 'accreditation':
      return tx.invoiceAmount != null ? t('ledger.purchase', { amount: currency(tx.invoiceAmount) }) : t('ledger.accreditation');
    case 'redemption':
      return tx.productName || t('ledger.pointsRedemption');
    case 'cancellation':
      return tx.originalTransactionId != null ? t('reports.row.cancels', { id: tx.originalTransactionId }) : t('reports.types.cancellation');
    case 'expiration':
      return t('reports.row.expired');
    case 'return':
      return tx.invoiceAmount != null ? t('ledger.return', { amount: currency(tx.invoiceAmount) }) : t('reports.types.return');
    case 'forfeit':
      return t('reports.row.forfeited');
    case 'opening':
      return t('reports.types.opening');
  }
}

/** The cashier the server names on the rows the expiration job writes. */
export const SYSTEM_CASHIER = 'system';

/** Whether a row's cashier is the expiration job rather than a person (shown translated). */
export function isSystemCashier(
  cashierUsername: string | null | undefined,
): cashierUsername is typeof SYSTEM_CASHIER | null | undefined {
  return !cashierUsername || cashierUsername === SYSTEM_CASHIER;
}
