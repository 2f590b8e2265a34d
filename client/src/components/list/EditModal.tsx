import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '../FormField';
import { Modal } from '../Modal';
import { useStaleError } from './useStaleError';

export interface EditModalProps {
  open: boolean;
  title: string;
  onCancel: () => void;
  onSubmit: () => void;
  submitting?: boolean;
  error?: string | null;
  /** Defaults to 'Update'. */
  submitLabel?: string;
  children: ReactNode;
}

/** The edit dialog of the list screens: fields, then Cancel and Update. */
export function EditModal({ open, title, onCancel, onSubmit, submitting = false, error, submitLabel, children }: EditModalProps) {
  const { t } = useTranslation();
  const stale = useStaleError(error);
  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    stale.onSubmit();
    if (!submitting) onSubmit();
  }
  return (
    <Modal open={open} title={title} onClose={onCancel} busy={submitting}>
      <form onSubmit={handleSubmit} onChange={stale.onEdit} noValidate>
        <div className="form-fields">{children}</div>
        <FormError message={stale.shown} />
        <div className="modal-actions">
          <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={submitting}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={submitting}>
            {submitting ? t('common.updating') : (submitLabel ?? t('common.update'))}
          </button>
        </div>
      </form>
    </Modal>
  );
}
