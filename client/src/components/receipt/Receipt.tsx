import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../../app/hooks';
import { selectUser } from '../../app/session';
import { useFormat } from '../../app/useFormat';
import type { Transaction } from '../../lib/types';
import { isSystemCashier, transactionDescription } from '../../lib/ledger';
import './receipt.css';

export interface ReceiptData {
  transaction: Transaction;
  /** Balance before and after the redemption; unknown (null) when reprinting a row older than the record of balances. */
  previousBalance: number | null;
  newBalance: number | null;
}

function Line({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className={`receipt-line ${strong ? 'receipt-line-strong' : ''}`}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/**
 * The printable redemption or return receipt (docs/screens.md, "Printouts and exports"): 302 px wide like
 * a thermal ticket, black on white in both themes, with the company (from the logged-in user), the
 * transaction and the balances. The print stylesheet prints only this element while it is open.
 */
export function Receipt({ data }: { data: ReceiptData }) {
  const { t } = useTranslation();
  const format = useFormat();
  const company = useAppSelector(selectUser)?.company ?? null;
  const [logoBroken, setLogoBroken] = useState(false);
  const { transaction, previousBalance, newBalance } = data;
  const na = t('common.notAvailable');
  const redeemed = Math.abs(transaction.points);
  // A return's receipt: the pesos given back and the points it reverted.
  const isReturn = transaction.type === 'return';
  const points = (value: number | null) => (value == null ? na : format.number(value));

  return (
    <article className="receipt" data-testid="receipt" aria-label={isReturn ? t('receipt.returnTitle') : t('receipt.title')}>
      <header className="receipt-company">
        {company?.logoUrl && !logoBroken ? (
          <img className="receipt-logo" src={company.logoUrl} alt={company.name} onError={() => setLogoBroken(true)} />
        ) : null}
        {company ? (
          <>
            <p className="receipt-company-name">{company.name}</p>
            {company.businessName ? <p>{company.businessName}</p> : null}
            <p>{t('receipt.taxId', { taxId: company.taxId })}</p>
            {company.address ? <p>{company.address}</p> : null}
            {company.phone ? <p>{t('receipt.phone', { phone: company.phone })}</p> : null}
          </>
        ) : null}
      </header>
      <p className="receipt-title">{isReturn ? t('receipt.returnTitle') : t('receipt.title')}</p>
      <dl className="receipt-section">
        <Line label={t('receipt.date')} value={format.dateTime(transaction.date)} />
        <Line label={t('receipt.transaction')} value={`#${transaction.id}`} />
        <Line label={t('receipt.pos')} value={transaction.posName || na} />
        <Line label={t('receipt.cashier')} value={isSystemCashier(transaction.cashierUsername) ? t('common.system') : transaction.cashierUsername} />
        <Line label={t('receipt.invoiceReference')} value={transaction.invoiceReference || na} />
      </dl>
      <dl className="receipt-section">
        <Line label={t('receipt.customer')} value={transaction.customerName} />
        <Line label={t('receipt.document')} value={transaction.customerDocument} />
      </dl>
      <dl className="receipt-section">
        <Line label={t('receipt.description')} value={transactionDescription(transaction, t, format.currency)} />
        <Line label={t('receipt.points')} value={format.number(redeemed)} />
        {transaction.redeemedValue != null ? (
          <Line label={t('receipt.equivalentValue')} value={format.currency(transaction.redeemedValue)} />
        ) : null}
        {isReturn && transaction.invoiceAmount != null ? (
          <Line label={t('receipt.returnedAmount')} value={format.currency(transaction.invoiceAmount)} />
        ) : null}
      </dl>
      <dl className="receipt-section">
        <Line label={t('receipt.previousBalance')} value={points(previousBalance)} />
        <Line label={isReturn ? t('receipt.returnedPoints') : t('receipt.redeemedPoints')} value={`-${format.number(redeemed)}`} />
        <Line label={t('receipt.newBalance')} value={points(newBalance)} strong />
      </dl>
      {previousBalance == null ? <p className="receipt-note">{t('receipt.reprintNote')}</p> : null}
      <p className="receipt-thanks">{t('receipt.thanks')}</p>
    </article>
  );
}
