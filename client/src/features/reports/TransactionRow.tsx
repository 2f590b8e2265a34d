import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../app/useFormat';
import type { Transaction, TransactionType } from '../../lib/types';
import { isSystemCashier, transactionDescription } from '../../lib/ledger';

/** The tint of each type's chip; a cancellation has a look of its own (reports.css). */
const TYPE_CHIP: Record<TransactionType, string> = {
  accreditation: 'tone-success',
  redemption: 'tone-info',
  expiration: 'tone-warning',
  cancellation: 'tx-type-cancellation',
  return: 'tone-warning',
  forfeit: 'tone-warning',
  opening: 'tone-success',
};

/**
 * The row's description in the screen's language; an accreditation's is its invoice amount,
 * which the row shows beside it.
 */
function shownDescription(tx: Transaction, t: TFunction, currency: (value: number) => string): string | null {
  return tx.type === 'accreditation' && !tx.description ? null : transactionDescription(tx, t, currency);
}

/** One report row: when, what, who, for whom; voided rows are faded and struck through. */
export function TransactionRow({ transaction }: { transaction: Transaction }) {
  const { t } = useTranslation();
  const format = useFormat();
  const tx = transaction;
  const positive = tx.points > 0;
  const amount =
    tx.type === 'return' && tx.invoiceAmount != null
      ? t('reports.row.returnedAmount', { amount: format.currency(tx.invoiceAmount) })
      : tx.invoiceAmount != null
      ? t('reports.row.invoiceAmount', { amount: format.currency(tx.invoiceAmount) })
      : tx.redeemedValue != null
        ? t('reports.row.redeemedValue', { amount: format.currency(tx.redeemedValue) })
        : null;
  return (
    <div className={`tx-row ${tx.is_voided ? 'tx-voided' : ''}`} data-testid={`transaction-${tx.id}`}>
      <div className="tx-main">
        <div className="tx-heading">
          <span className={`chip tx-type ${TYPE_CHIP[tx.type]}`}>{t(`reports.types.${tx.type}`)}</span>
          {tx.is_voided ? <span className="chip tone-danger">{t('reports.voidedBadge')}</span> : null}
          <span className="row-meta">{t('reports.row.id', { id: tx.id })}</span>
          <time className="row-meta" dateTime={tx.date}>
            {format.dateTime(tx.date)}
          </time>
        </div>
        <span className="row-title tx-strike">
          {tx.customerName} <span className="row-meta">{format.digits(tx.customerDocument) || tx.customerDocument}</span>
        </span>
        <span className="row-meta tx-strike">
          {[
            shownDescription(tx, t, format.currency),
            tx.type === 'return' && tx.originalTransactionId != null
              ? t('reports.row.returns', { id: tx.originalTransactionId })
              : null,
            tx.invoiceReference ? t('reports.row.invoiceReference', { reference: tx.invoiceReference }) : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        </span>
        <span className="row-meta">
          {[
            t('reports.row.pos', { pos: tx.posName || t('common.notAvailable') }),
            t('reports.row.cashier', { cashier: isSystemCashier(tx.cashierUsername) ? t('common.system') : tx.cashierUsername }),
          ].join(' · ')}
          {tx.approvedBy ? (
            <span className="tx-approved-by" data-testid={`approved-by-${tx.id}`}>
              {' '}
              · {t('reports.row.approvedBy', { username: tx.approvedBy })}
            </span>
          ) : null}
          {tx.is_voided && tx.voided_by ? (
            <span className="tx-voided-by"> · {t('reports.voidedBy', { username: tx.voided_by })}</span>
          ) : null}
        </span>
      </div>
      <div className="tx-figures">
        <span className={`tx-points tx-strike ${positive ? 'tx-points-plus' : 'tx-points-minus'}`}>
          {t('reports.row.points', { points: `${positive ? '+' : ''}${format.number(tx.points)}` })}
        </span>
        {amount ? <span className="row-meta tx-strike">{amount}</span> : null}
      </div>
    </div>
  );
}
