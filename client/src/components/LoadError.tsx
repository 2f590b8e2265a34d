import { ArrowPathIcon } from '@heroicons/react/24/outline';
import { useTranslation } from 'react-i18next';

export interface LoadErrorProps {
  message: string;
  onRetry: () => void;
  /** A card by default; a list's empty box where the list would be. */
  className?: string;
}

/** A load that failed: what went wrong, and a button that loads again. */
export function LoadError({ message, onRetry, className = 'card load-error' }: LoadErrorProps) {
  const { t } = useTranslation();
  return (
    <div className={className} role="alert">
      <p>{message}</p>
      <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry}>
        <ArrowPathIcon aria-hidden="true" />
        {t('common.retry')}
      </button>
    </div>
  );
}
