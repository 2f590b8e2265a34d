import { CheckCircleIcon, InformationCircleIcon, XCircleIcon, XMarkIcon } from '@heroicons/react/24/outline';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { selectToasts, toastDismissed, type Toast } from '../app/toasts';
import { TOAST_DURATION_MS, TOAST_FADE_MS } from '../lib/constants';

const ICONS = { success: CheckCircleIcon, error: XCircleIcon, info: InformationCircleIcon } as const;

function ToastItem({ toast }: { toast: Toast }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [leaving, setLeaving] = useState(false);

  useEffect(() => {
    if (leaving) return undefined;
    const fade = window.setTimeout(() => setLeaving(true), TOAST_DURATION_MS);
    return () => window.clearTimeout(fade);
  }, [leaving]);

  useEffect(() => {
    if (!leaving) return undefined;
    const remove = window.setTimeout(() => dispatch(toastDismissed(toast.id)), TOAST_FADE_MS);
    return () => window.clearTimeout(remove);
  }, [leaving, dispatch, toast.id]);

  const Icon = ICONS[toast.kind];
  const text = toast.messageKey ? t(toast.messageKey, toast.params ?? {}) : toast.message;

  return (
    <div
      className={`toast toast-${toast.kind} ${leaving ? 'toast-leaving' : ''}`}
      role={toast.kind === 'error' ? 'alert' : 'status'}
      style={{ transitionDuration: `${TOAST_FADE_MS}ms` }}
    >
      <Icon className="toast-icon" aria-hidden="true" />
      <span className="toast-text">{text}</span>
      <button type="button" className="icon-button" onClick={() => setLeaving(true)} aria-label={t('common.dismiss')}>
        <XMarkIcon aria-hidden="true" />
      </button>
    </div>
  );
}

/** Toasts auto-dismiss after 5 s with a 300 ms fade (docs/screens.md, "Messages"). */
export function Toaster() {
  const toasts = useAppSelector(selectToasts);
  return (
    <div className="toaster" aria-live="polite">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  );
}
