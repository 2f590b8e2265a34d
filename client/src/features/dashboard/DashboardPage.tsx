import {
  ArrowTrendingUpIcon,
  ArrowUturnLeftIcon,
  ArrowsRightLeftIcon,
  QrCodeIcon,
  StarIcon,
  UsersIcon,
} from '@heroicons/react/24/outline';
import { lazy, Suspense, useMemo, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../../app/hooks';
import { selectUser } from '../../app/session';
import { useGetSettingsQuery } from '../../app/tenantApi';
import { useFormat } from '../../app/useFormat';
import { LoadError } from '../../components/LoadError';
import { Modal } from '../../components/Modal';
import { AccreditForm, RedeemForm } from '../points';
import { DueRequestsPanel } from '../dataRequests';
import { NewAlertsCard } from '../alerts';
import { isPathPermitted, maySeeAlerts, needsRolePermissions, permissionsFor } from '../../lib/access';
import { paths } from '../../lib/paths';
import { PageHeader } from '../../components/PageHeader';
import { dailyBuckets } from './chartData';
import { useGetDashboardStatsQuery } from './dashboardApi';
import { SetupChecklist } from './SetupChecklist';
import './dashboard.css';

const PointsChart = lazy(() => import('./PointsChart'));

interface Kpi {
  id:
    | 'totalCustomers'
    | 'pointsInCirculation'
    | 'transactionsLast30Days'
    | 'pointsAccreditedLast30Days'
    | 'pointsReturnedLast30Days';
  Icon: ComponentType<{ className?: string; 'aria-hidden'?: boolean | 'true' }>;
  /** The icon's tint (index.css, "Tones"). */
  tone: 'primary' | 'warning' | 'info' | 'success';
}

const KPIS: readonly Kpi[] = [
  { id: 'totalCustomers', Icon: UsersIcon, tone: 'primary' },
  { id: 'pointsInCirculation', Icon: StarIcon, tone: 'warning' },
  { id: 'transactionsLast30Days', Icon: ArrowsRightLeftIcon, tone: 'info' },
  { id: 'pointsAccreditedLast30Days', Icon: ArrowTrendingUpIcon, tone: 'success' },
  { id: 'pointsReturnedLast30Days', Icon: ArrowUturnLeftIcon, tone: 'warning' },
];

function ChartPlaceholder({ text }: { text: string }) {
  return (
    <div className="points-chart points-chart-placeholder" role="status">
      {text}
    </div>
  );
}

/** /main: the admin's set-up checklist while something is missing, five KPI cards, the 30-day chart, and the quick accredit and redeem panels. */
export function DashboardPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const stats = useGetDashboardStatsQuery();
  const user = useAppSelector(selectUser);
  const isAdmin = user?.role === 'admin';
  const { data: settings } = useGetSettingsQuery(undefined, { skip: !user || !needsRolePermissions(user) });
  const seesDataRequests =
    isAdmin || (!!user && isPathPermitted(permissionsFor(user, settings?.rolePermissions) ?? [], paths.dataRequests));
  const showAlerts = maySeeAlerts(user, settings?.rolePermissions);
  const [scanOpen, setScanOpen] = useState(false);
  const buckets = useMemo(() => dailyBuckets(stats.data?.daily ?? []), [stats.data]);

  return (
    <section className="page dashboard">
      <PageHeader
        title={t('dashboard.title')}
        subtitle={t('dashboard.subtitle')}
        actions={
          <button type="button" className="btn btn-secondary" onClick={() => setScanOpen(true)}>
            <QrCodeIcon aria-hidden="true" />
            {t('dashboard.scan')}
          </button>
        }
      />

      {isAdmin ? <SetupChecklist /> : null}

      {seesDataRequests ? <DueRequestsPanel /> : null}
      {showAlerts ? <NewAlertsCard /> : null}

      {stats.isError ? (
        <LoadError message={t('dashboard.errorLoadingStats')} onRetry={() => void stats.refetch()} />
      ) : null}

      <ul className="kpi-grid" aria-label={t('dashboard.kpisLabel')} aria-busy={stats.isLoading}>
        {KPIS.map(({ id, Icon, tone }) => (
          <li key={id} className="card kpi-card">
            <Icon className={`kpi-icon tone-${tone}`} aria-hidden="true" />
            <div className="kpi-text">
              <span className="kpi-label">{t(`dashboard.kpi.${id}`)}</span>
              <span className="kpi-value" data-testid={`kpi-${id}`}>
                {stats.data ? format.number(Number(stats.data[id] ?? 0)) : stats.isLoading ? '…' : t('common.notAvailable')}
              </span>
              {id === 'pointsInCirculation' && stats.data?.liability ? (
                <span className="kpi-detail">{t('dashboard.kpi.liability', { value: format.currency(stats.data.liability.value) })}</span>
              ) : null}
            </div>
          </li>
        ))}
      </ul>

      <section className="card chart-card" aria-labelledby="dashboard-chart-title">
        <h2 id="dashboard-chart-title" className="card-title">
          {t('dashboard.chart.title')}
        </h2>
        {stats.isLoading ? (
          <ChartPlaceholder text={t('common.loading')} />
        ) : stats.data ? (
          <Suspense fallback={<ChartPlaceholder text={t('common.loading')} />}>
            <PointsChart buckets={buckets} />
          </Suspense>
        ) : (
          <ChartPlaceholder text={t('dashboard.errorLoadingStats')} />
        )}
      </section>

      <div className="quick-panels">
        <section className="card quick-panel" aria-labelledby="quick-accredit-title">
          <h2 id="quick-accredit-title" className="card-title">
            {t('dashboard.quickAccredit')}
          </h2>
          <AccreditForm compact />
        </section>
        <section className="card quick-panel" aria-labelledby="quick-redeem-title">
          <h2 id="quick-redeem-title" className="card-title">
            {t('dashboard.quickRedeem')}
          </h2>
          <RedeemForm variant="quick" />
        </section>
      </div>

      <Modal
        open={scanOpen}
        title={t('dashboard.scanTitle')}
        onClose={() => setScanOpen(false)}
        size="sm"
        footer={
          <div className="modal-actions">
            <button type="button" className="btn btn-primary" onClick={() => setScanOpen(false)}>
              {t('common.close')}
            </button>
          </div>
        }
      >
        <p>{t('dashboard.scanNotImplemented')}</p>
      </Modal>
    </section>
  );
}
