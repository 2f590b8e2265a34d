import { BellAlertIcon } from '@heroicons/react/24/outline';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useFormat } from '../../app/useFormat';
import { paths } from '../../lib/paths';
import { useGetAlertCountQuery } from './alertsApi';

/** The dashboard's count of new alerts, linking to /alertas; render it only for those who may see alerts. */
export function NewAlertsCard() {
  const { t } = useTranslation();
  const format = useFormat();
  const count = useGetAlertCountQuery(undefined, { refetchOnMountOrArgChange: true });
  if (!count.data) return null;
  const n = count.data.newAlerts;
  return (
    <Link to={paths.alerts} className={`card new-alerts-card${n > 0 ? ' new-alerts-card-open' : ''}`} data-testid="new-alerts">
      <BellAlertIcon className={`kpi-icon tone-${n > 0 ? 'warning' : 'success'}`} aria-hidden="true" />
      <span>{n > 0 ? t(n === 1 ? 'alerts.dashboard.one' : 'alerts.dashboard.many', { n: format.number(n) }) : t('alerts.dashboard.none')}</span>
    </Link>
  );
}
