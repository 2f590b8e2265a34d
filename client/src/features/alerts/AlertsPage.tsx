import { CheckIcon, ChevronDownIcon, ChevronUpIcon, TableCellsIcon } from '@heroicons/react/24/outline';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useFeedback } from '../../app/feedback';
import { useFormat } from '../../app/useFormat';
import { SelectField } from '../../components/FormField';
import { LoadError } from '../../components/LoadError';
import { PageHeader } from '../../components/PageHeader';
import { PagedList, useListState } from '../../components/list';
import { isSystemCashier } from '../../lib/ledger';
import type { Alert, AlertKind, AlertStatus } from '../../lib/types';
import { alertReportLink } from './alertLink';
import { ALERT_KINDS, useGetAlertsQuery, useGetAlertTransactionsQuery, useReviewAlertMutation } from './alertsApi';
import './alerts.css';

/** What happened, worded from the alert's figures in the reader's language. */
function useAlertText() {
  const { t } = useTranslation();
  const format = useFormat();
  return (alert: Alert) => {
    const params = {
      occurrences: format.number(alert.occurrences),
      threshold: format.number(alert.threshold ?? 0),
      points: format.number(alert.points ?? 0),
      cashier: alert.cashierUsername ?? '',
      invoice: alert.invoiceReference ?? '',
    };
    return t(`alerts.detail.${alert.kind}`, params);
  };
}

function AlertTransactions({ alert }: { alert: Alert }) {
  const { t } = useTranslation();
  const format = useFormat();
  const { data, isLoading, isError, refetch } = useGetAlertTransactionsQuery(alert.id);
  if (isError) return <LoadError message={t('alerts.transactionsError')} onRetry={() => void refetch()} />;
  if (isLoading || !data) return <p role="status">{t('alerts.loadingTransactions')}</p>;
  return (
    <div className="table-scroll">
      <table className="alert-transactions" data-testid={`alert-transactions-${alert.id}`}>
        <caption className="visually-hidden">{t('alerts.transactionsCaption', { id: alert.id })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('alerts.columns.id')}</th>
            <th scope="col">{t('alerts.columns.date')}</th>
            <th scope="col">{t('alerts.columns.type')}</th>
            <th scope="col">{t('alerts.columns.customer')}</th>
            <th scope="col">{t('alerts.columns.cashier')}</th>
            <th scope="col">{t('alerts.columns.invoice')}</th>
            <th scope="col">{t('alerts.columns.points')}</th>
          </tr>
        </thead>
        <tbody>
          {data.map((tx) => (
            <tr key={tx.id} className={tx.is_voided ? 'alert-tx-voided' : undefined}>
              <td>#{tx.id}</td>
              <td>{format.dateTime(tx.date)}</td>
              <td>
                {t(`reports.types.${tx.type}`)}
                {tx.is_voided ? ` (${t('alerts.voided')})` : ''}
              </td>
              <td>
                {tx.customerName} · {format.document(tx.customerDocument)}
              </td>
              <td>{isSystemCashier(tx.cashierUsername) ? t('alerts.system') : tx.cashierUsername}</td>
              <td>{tx.invoiceReference ?? ''}</td>
              <td>{format.number(tx.points)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** /alertas (admins; supervisors granted it): patterns an auditor would check, to mark reviewed. */
export function AlertsPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const feedback = useFeedback();
  const text = useAlertText();
  const list = useListState();
  const [status, setStatus] = useState<AlertStatus | ''>('new');
  const [kind, setKind] = useState<AlertKind | ''>('');
  const [open, setOpen] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const query = { status, kind, page: list.page, pageSize: list.pageSize };
  const result = useGetAlertsQuery(query, { refetchOnMountOrArgChange: true });
  const [review, reviewState] = useReviewAlertMutation();

  const statusOptions = useMemo(
    () => (['new', 'reviewed'] as const).map((value) => ({ value, label: t(`alerts.status.${value}`) })),
    [t],
  );
  const kindOptions = useMemo(() => ALERT_KINDS.map((value) => ({ value, label: t(`alerts.kinds.${value}`) })), [t]);

  async function markReviewed(alert: Alert) {
    setError(null);
    try {
      await review({ id: alert.id, status: 'reviewed' }).unwrap();
    } catch (failure) {
      setError(feedback.errorText(failure));
    }
  }

  function subject(alert: Alert) {
    const parts: string[] = [];
    if (alert.customerName) parts.push(`${alert.customerName} · ${format.document(alert.customerDocument ?? '')}`);
    if (alert.cashierUsername) parts.push(t('alerts.cashier', { cashier: alert.cashierUsername }));
    if (alert.invoiceReference) parts.push(t('alerts.invoice', { invoice: alert.invoiceReference }));
    return parts.join(' — ');
  }

  return (
    <section className="page alerts">
      <PageHeader title={t('alerts.title')} subtitle={t('alerts.subtitle')} />
      <section className="card alert-filters" aria-label={t('alerts.filters')}>
        <SelectField
          label={t('alerts.statusFilter')}
          value={status}
          options={statusOptions}
          emptyOption={t('alerts.allStatuses')}
          onChange={(value) => {
            setStatus(value as AlertStatus | '');
            list.setPage(1);
          }}
        />
        <SelectField
          label={t('alerts.kindFilter')}
          value={kind}
          options={kindOptions}
          emptyOption={t('alerts.allKinds')}
          onChange={(value) => {
            setKind(value as AlertKind | '');
            list.setPage(1);
          }}
        />
      </section>
      {result.isError ? <LoadError message={t('alerts.loadError')} onRetry={() => void result.refetch()} /> : null}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <PagedList<Alert>
        mode="server"
        title={t('alerts.listTitle')}
        items={result.data?.items ?? []}
        total={result.data?.total ?? 0}
        state={list}
        loading={result.isFetching}
        searchable={false}
        getKey={(alert) => alert.id}
        emptyText={status === 'new' ? t('alerts.emptyNew') : t('alerts.empty')}
        noResultsText={t('alerts.empty')}
        renderItem={(alert) => (
          <div className="alert-row" data-testid={`alert-${alert.id}`}>
            <div className="row-title">
              {t(`alerts.kinds.${alert.kind}`)}
              <span className={`alert-badge alert-badge-${alert.status}`}>
                {t(`alerts.status.${alert.status}`)}
              </span>
            </div>
            <div className="row-meta">
              {alert.day} · {subject(alert)}
            </div>
            <div>{text(alert)}</div>
            {alert.reviewedBy ? (
              <div className="row-meta">
                {t('alerts.reviewedBy', { user: alert.reviewedBy, date: alert.reviewedAt ? format.dateTime(alert.reviewedAt) : '' })}
              </div>
            ) : null}
            {open === alert.id ? <AlertTransactions alert={alert} /> : null}
          </div>
        )}
        renderActions={(alert) => (
          <>
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              aria-expanded={open === alert.id}
              onClick={() => setOpen(open === alert.id ? null : alert.id)}
              aria-label={t('alerts.showTransactionsOf', { id: alert.id })}
            >
              {open === alert.id ? <ChevronUpIcon aria-hidden="true" /> : <ChevronDownIcon aria-hidden="true" />}
              {t('alerts.transactions', { n: alert.transactionIds.length })}
            </button>
            <Link
              to={alertReportLink(alert)}
              className="btn btn-secondary btn-sm"
              aria-label={t('alerts.openReportOf', { id: alert.id })}
            >
              <TableCellsIcon aria-hidden="true" />
              {t('alerts.openReport')}
            </Link>
            {alert.status === 'new' ? (
              <button
                type="button"
                className="btn btn-primary btn-sm"
                disabled={reviewState.isLoading}
                onClick={() => void markReviewed(alert)}
                aria-label={t('alerts.markReviewedOf', { id: alert.id })}
              >
                <CheckIcon aria-hidden="true" />
                {t('alerts.markReviewed')}
              </button>
            ) : null}
          </>
        )}
      />
    </section>
  );
}
