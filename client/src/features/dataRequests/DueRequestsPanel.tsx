import { ShieldExclamationIcon } from '@heroicons/react/24/outline';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../lib/paths';
import { useGetDueDataRequestsQuery } from './dataRequestsApi';
import { RequestClock } from './RequestClock';
import './dataRequests.css';

/**
 * The dashboard's card of data requests due within 2 business days or overdue; nothing when there
 * is none. Render it only for users who may open the requests screen.
 */
export function DueRequestsPanel() {
  const { t } = useTranslation();
  const { data } = useGetDueDataRequestsQuery();
  if (!data || data.length === 0) return null;
  const overdue = data.filter((r) => (r.daysLeft ?? 0) < 0).length;
  return (
    <section className="card due-requests" aria-labelledby="due-requests-title">
      <h2 id="due-requests-title" className="card-title">
        <ShieldExclamationIcon className="due-requests-icon" aria-hidden="true" />
        {t('dataRequests.due.title')}
      </h2>
      <p className="row-meta">{t('dataRequests.due.summary', { due: data.length - overdue, overdue })}</p>
      <ul className="due-requests-list">
        {data.map((request) => (
          <li key={request.id} data-testid={`due-request-${request.id}`}>
            <span className="row-title">{request.subject}</span>
            <span className="row-meta">
              {t(`dataRequests.kinds.${request.kind as 'consulta' | 'reclamo'}`)} · {request.customerName ?? request.document}
            </span>
            <RequestClock request={request} />
          </li>
        ))}
      </ul>
      <Link to={paths.dataRequests} className="btn btn-secondary btn-sm">
        {t('dataRequests.due.open')}
      </Link>
    </section>
  );
}
