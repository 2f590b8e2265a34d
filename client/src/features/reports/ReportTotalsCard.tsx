import { useTranslation } from 'react-i18next';
import { useFormat } from '../../app/useFormat';
import type { ReportTotals } from './reportsApi';

/** The totals of every row the report's filters match (not only the page shown). */
export function ReportTotalsCard({ totals }: { totals: ReportTotals }) {
  const { t } = useTranslation();
  const format = useFormat();
  const figures = [
    { id: 'pointsAccredited', value: format.number(totals.pointsAccredited) },
    { id: 'pointsRedeemed', value: format.number(totals.pointsRedeemed) },
    { id: 'invoiceAmount', value: format.currency(totals.invoiceAmount) },
    { id: 'redeemedValue', value: format.currency(totals.redeemedValue) },
    { id: 'pointsReturned', value: format.number(totals.pointsReturned) },
    { id: 'returnedAmount', value: format.currency(totals.returnedAmount) },
  ] as const;
  return (
    <section className="card report-totals" aria-labelledby="report-totals-title">
      <h2 id="report-totals-title" className="card-title">
        {t('reports.totals.title')}
      </h2>
      <dl className="report-totals-figures">
        {figures.map((figure) => (
          <div key={figure.id} className="report-total">
            <dt>{t(`reports.totals.${figure.id}`)}</dt>
            <dd data-testid={`total-${figure.id}`}>{figure.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
