import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from './FormField';
import { Modal, type ModalProps } from './Modal';

export interface FormDialogProps {
  open: boolean;
  title: string;
  /** Cancel, Escape and the close button. */
  onClose: () => void;
  /** The form was submitted (not called again while `submitting`). */
  onSubmit: () => void;
  submitting?: boolean;
  /** Shown under the fields, above the buttons. */
  error?: string | null;
  submitLabel: string;
  submittingLabel: string;
  /** 'danger': a red dialog and submit button (a void). */
  tone?: ModalProps['tone'];
  size?: ModalProps['size'];
  /** The form's accessible name. */
  formLabel?: string;
  formClassName?: string;
  /** A field of the form changed. */
  onEdit?: () => void;
  children: ReactNode;
}

/** A form in a dialog: its content, the error under it, then Cancel and the submit button. */
export function FormDialog({
  open,
  title,
  onClose,
  onSubmit,
  submitting = false,
  error,
  submitLabel,
  submittingLabel,
  tone,
  size,
  formLabel,
  formClassName,
  onEdit,
  children,
}: FormDialogProps) {
  const { t } = useTranslation();
  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!submitting) onSubmit();
  }
  return (
    <Modal open={open} title={title} onClose={onClose} busy={submitting} tone={tone} size={size}>
      <form className={formClassName} onSubmit={handleSubmit} onChange={onEdit} noValidate aria-label={formLabel}>
        {children}
        <FormError message={error} />
        <div className="modal-actions">
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={submitting}>
            {t('common.cancel')}
          </button>
          <button type="submit" className={`btn ${tone === 'danger' ? 'btn-danger' : 'btn-primary'}`} disabled={submitting}>
            {submitting ? submittingLabel : submitLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
}
