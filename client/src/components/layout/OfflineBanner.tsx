import { CloudArrowUpIcon, SignalSlashIcon } from '@heroicons/react/24/outline';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useAppSelector } from '../../app/hooks';
import { selectOnline, selectPendingCount, selectRejectedCount } from '../../app/offline';
import { paths } from '../../lib/paths';

/**
 * Says the device is offline (what still works: accreditations wait here), and while any
 * accreditation of this company waits on the device, how many and how many were refused
 * (docs/operations.md, "Offline till").
 */
export function OfflineBanner() {
  const { t } = useTranslation();
  const online = useAppSelector(selectOnline);
  const pending = useAppSelector(selectPendingCount);
  const rejected = useAppSelector(selectRejectedCount);
  if (online && pending === 0) return null;
  return (
    <div className={`offline-banner ${online ? 'tone-info' : 'tone-warning'}`} role="status" data-testid="offline-banner">
      {online ? <CloudArrowUpIcon aria-hidden="true" /> : <SignalSlashIcon aria-hidden="true" />}
      <p>
        {online ? null : <strong>{t('offline.banner')}</strong>}{' '}
        {pending > 0 ? (
          <span data-testid="offline-pending">{t('offline.pending', { count: pending })}</span>
        ) : null}{' '}
        {rejected > 0 ? (
          <Link to={paths.accredit}>{t('offline.rejected', { count: rejected })}</Link>
        ) : null}
      </p>
    </div>
  );
}
