import { ArrowPathIcon, TrashIcon } from '@heroicons/react/24/outline';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../../app/hooks';
import { selectUser } from '../../app/session';
import { useFormat } from '../../app/useFormat';
import { deviceQueue, onQueueChanged, retryEntry, type QueuedAccreditation } from '../../lib/offlineQueue';

/** The company's accreditations kept on this device, oldest first, kept current. */
function useDeviceQueue(company: string | null): QueuedAccreditation[] {
  const [entries, setEntries] = useState<QueuedAccreditation[]>([]);
  useEffect(() => {
    if (!company) return;
    let live = true;
    const load = () => {
      void deviceQueue
        .entries(company)
        .then((found) => {
          if (live) setEntries(found);
        })
        .catch(() => undefined);
    };
    load();
    const unsubscribe = onQueueChanged(load);
    // Another tab's replay changes the queue too.
    const timer = setInterval(load, 5000);
    return () => {
      live = false;
      unsubscribe();
      clearInterval(timer);
    };
  }, [company]);
  return company ? entries : [];
}

/**
 * "Waiting on this device" (docs/operations.md, "Offline till"): each accreditation not yet
 * sent; one the server refused shows its reason, and a supervisor or an admin discards it or
 * sends it again (same key: if it had gone through after all, the server answers the first
 * answer and posts nothing twice).
 */
export function PendingAccreditations() {
  const { t } = useTranslation();
  const format = useFormat();
  const user = useAppSelector(selectUser);
  const entries = useDeviceQueue(user?.company?.prefix ?? null);
  if (entries.length === 0) return null;
  const resolves = user?.role === 'admin' || user?.role === 'supervisor';

  return (
    <section className="pending-accreditations" aria-labelledby="pending-accreditations-title" data-testid="pending-accreditations">
      <h3 id="pending-accreditations-title" className="card-title">
        {t('offline.listTitle')}
      </h3>
      <ul>
        {entries.map((entry) => (
          <li key={entry.idempotencyKey} className={entry.status === 'rejected' ? 'tone-danger' : undefined} data-status={entry.status}>
            <span>
              {t('offline.listItem', {
                amount: format.currency(entry.invoiceAmount),
                name: entry.customerName,
                date: format.dateTime(entry.createdAt),
              })}
            </span>
            <span className="row-meta">
              {entry.status === 'rejected' ? t('offline.statusRejected', { reason: entry.error ?? '' }) : t('offline.statusPending')}
            </span>
            {entry.status === 'rejected' && resolves ? (
              <span className="pending-actions">
                <button type="button" className="btn btn-sm btn-secondary" onClick={() => void retryEntry(deviceQueue, entry)}>
                  <ArrowPathIcon aria-hidden="true" />
                  {t('offline.retry')}
                </button>
                <button type="button" className="btn btn-sm btn-danger" onClick={() => void deviceQueue.remove(entry.idempotencyKey)}>
                  <TrashIcon aria-hidden="true" />
                  {t('offline.discard')}
                </button>
              </span>
            ) : null}
          </li>
        ))}
      </ul>
      {entries.some((entry) => entry.status === 'rejected') && !resolves ? <p className="row-meta">{t('offline.supervisorResolves')}</p> : null}
    </section>
  );
}
