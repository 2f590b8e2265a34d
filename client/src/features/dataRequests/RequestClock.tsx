import { useTranslation } from 'react-i18next';
import { useFormat } from '../../app/useFormat';
import type { DataRequest } from '../../lib/types';
import { daysLeftText, formatDay, urgency } from './dataRequests';

/** A request's due date and its business days left (or overdue), tinted by urgency. */
export function RequestClock({ request }: { request: Pick<DataRequest, 'dueOn' | 'daysLeft'> }) {
  const { t } = useTranslation();
  const { locale } = useFormat();
  const left = daysLeftText(request.daysLeft);
  return (
    <span className={`request-clock tone-${urgency(request.daysLeft)}`} data-testid="request-clock">
      {t('dataRequests.dueOn', { date: formatDay(request.dueOn, locale) })}
      {left ? ` · ${t(left.key, { count: left.count })}` : null}
    </span>
  );
}
