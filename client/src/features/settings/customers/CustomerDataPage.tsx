import { ArrowLeftIcon, PrinterIcon } from '@heroicons/react/24/outline';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { useFormat } from '../../../app/useFormat';
import { LoadError } from '../../../components/LoadError';
import { PageHeader } from '../../../components/PageHeader';
import { transactionDescription } from '../../../lib/ledger';
import { paths } from '../../../lib/paths';
import type { CustomerData } from '../../../lib/types';
import { useGetCustomerDataQuery } from './customersApi';

type RequestKind = 'consulta' | 'reclamo';
type RequestStatus = 'open' | 'incomplete' | 'answered' | 'closed';

/** One labelled value of the personal data; an absent one reads "None". */
function Item({ label, value }: { label: string; value: string | null | undefined }) {
  const { t } = useTranslation();
  return (
    <div className="customer-data-item">
      <dt>{label}</dt>
      <dd>{value ?? t('customers.data.none')}</dd>
    </div>
  );
}

function Contents({ data }: { data: CustomerData }) {
  const { t } = useTranslation();
  const format = useFormat();
  const c = data.customer;
  const state = data.suppressedAt
    ? t('customers.data.suppressed', { date: format.dateTime(data.suppressedAt) })
    : c.is_active
      ? t('customers.data.active')
      : t('customers.data.inactive');
  return (
    <>
      <section className="card customer-data-section" aria-label={t('customers.data.personalTitle')}>
        <h2 className="settings-section-title">{t('customers.data.personalTitle')}</h2>
        <dl className="customer-data-list">
          <Item label={t('customers.fields.name')} value={c.name} />
          <Item label={t('customers.fields.document')} value={format.document(c.document)} />
          <Item label={t('customers.fields.email')} value={c.email} />
          <Item label={t('customers.fields.phone')} value={c.phone} />
          <Item label={t('customers.fields.address')} value={c.address} />
          <Item label={t('customers.fields.birthdate')} value={c.birthdate} />
          <Item label={t('customers.data.points')} value={format.number(c.points)} />
          <Item label={t('customers.data.state')} value={state} />
          <Item label={t('customers.data.enrolledAt')} value={format.dateTime(data.enrolledAt)} />
          <Item
            label={t('customers.data.lastActivityAt')}
            value={data.lastActivityAt ? format.dateTime(data.lastActivityAt) : null}
          />
        </dl>
      </section>

      <section className="card customer-data-section" aria-label={t('customers.data.ledgerTitle')}>
        <h2 className="settings-section-title">{t('customers.data.ledgerTitle')}</h2>
        {data.transactions.length === 0 ? (
          <p>{t('customers.data.ledgerEmpty')}</p>
        ) : (
          <table className="customer-data-table">
            <thead>
              <tr>
                <th scope="col">{t('customers.data.date')}</th>
                <th scope="col">{t('customers.data.type')}</th>
                <th scope="col">{t('customers.data.description')}</th>
                <th scope="col">{t('customers.data.pointsColumn')}</th>
              </tr>
            </thead>
            <tbody>
              {data.transactions.map((tx) => (
                <tr key={tx.id} data-testid={`data-transaction-${tx.id}`}>
                  <td>{format.dateTime(tx.date)}</td>
                  <td>{t(`reports.types.${tx.type}`)}</td>
                  <td>{transactionDescription(tx, t, format.currency)}</td>
                  <td className="numeric">{format.number(tx.points)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section className="card customer-data-section" aria-label={t('customers.data.requestsTitle')}>
        <h2 className="settings-section-title">{t('customers.data.requestsTitle')}</h2>
        {data.dataRequests.length === 0 ? (
          <p>{t('customers.data.requestsEmpty')}</p>
        ) : (
          <ul className="customer-data-requests">
            {data.dataRequests.map((r) => (
              <li key={r.id}>
                {t('customers.data.request', {
                  kind: t(`dataRequests.kinds.${r.kind as RequestKind}`),
                  date: r.filedOn,
                  subject: r.subject,
                  status: t(`dataRequests.statuses.${r.status as RequestStatus}`),
                })}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="card customer-data-section" aria-label={t('customers.data.consentsTitle')}>
        <h2 className="settings-section-title">{t('customers.data.consentsTitle')}</h2>
        {data.consents.length === 0 ? (
          <p>{t('customers.data.consentsEmpty')}</p>
        ) : (
          <ul className="customer-data-requests">
            {data.consents.map((c, index) => (
              <li key={index}>
                {t(c.granted ? 'customers.data.consentGranted' : 'customers.data.consentRevoked', {
                  purpose: c.purpose,
                  version: c.noticeVersion,
                  date: format.dateTime(c.recordedAt),
                  channel: c.channel,
                  by: c.recordedBy,
                })}
              </li>
            ))}
          </ul>
        )}
      </section>

      <p className="customer-data-footer">{t('customers.data.exportedAt', { date: format.dateTime(data.exportedAt) })}</p>
    </>
  );
}

/**
 * /settings/customers/:id/datos (admin): everything the company holds about one customer, ready to
 * print for the holder (Ley 1581, art. 8; docs/privacy.md, "Access"). Each load is an export the
 * server records in the audit trail.
 */
export function CustomerDataPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const valid = Number.isInteger(id) && id > 0;
  const { data, isLoading, isError, refetch } = useGetCustomerDataQuery(id, { skip: !valid });

  return (
    <div className="customer-data-page">
      <PageHeader
        title={t('customers.data.title')}
        subtitle={t('customers.data.subtitle')}
        actions={
          <div className="customer-data-actions">
            <Link className="btn btn-secondary" to={paths.settingsCustomers}>
              <ArrowLeftIcon aria-hidden="true" />
              {t('customers.data.back')}
            </Link>
            <button type="button" className="btn btn-primary" onClick={() => window.print()} disabled={!data}>
              <PrinterIcon aria-hidden="true" />
              {t('customers.data.print')}
            </button>
          </div>
        }
      />
      {!valid || isError ? (
        <LoadError message={t('customers.data.error')} onRetry={() => {
            if (valid) void refetch();
          }} />
      ) : isLoading || !data ? (
        <p className="card">{t('customers.data.loading')}</p>
      ) : (
        <Contents data={data} />
      )}
    </div>
  );
}
