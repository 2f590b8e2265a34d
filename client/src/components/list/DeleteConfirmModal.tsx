import { ExclamationTriangleIcon } from '@heroicons/react/24/outline';
import { useTranslation } from 'react-i18next';
import { Modal } from '../Modal';

export interface DeleteConfirmModalProps {
  open: boolean;
  /** Name of the record, used in the default texts. */
  name: string;
  /** True when related records exist: the record will only be made inactive. */
  soft?: boolean;
  /** Replaces the default soft/hard text. */
  message?: string;
  softText?: string;
  hardText?: string;
  title?: string;
  /** While the usage look-up runs the Delete button waits. */
  checking?: boolean;
  deleting?: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

/** The delete confirmation: a soft or hard text, then Cancel and Delete. */
export function DeleteConfirmModal({
  open,
  name,
  soft = false,
  message,
  softText,
  hardText,
  title,
  checking = false,
  deleting = false,
  onCancel,
  onConfirm,
}: DeleteConfirmModalProps) {
  const { t } = useTranslation();
  const text = checking
    ? t('list.checkingUsage')
    : (message ?? (soft ? (softText ?? t('list.deleteSoft', { name })) : (hardText ?? t('list.deleteHard', { name }))));
  return (
    <Modal open={open} title={title ?? t('list.deleteTitle')} onClose={onCancel} size="sm" tone="danger" busy={deleting}>
      <div className="confirm-body">
        <ExclamationTriangleIcon className="confirm-icon" aria-hidden="true" />
        <p data-testid="delete-text">{text}</p>
      </div>
      <div className="modal-actions">
        <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={deleting}>
          {t('common.cancel')}
        </button>
        <button type="button" className="btn btn-danger" onClick={onConfirm} disabled={checking || deleting}>
          {deleting ? t('common.deleting') : t('common.delete')}
        </button>
      </div>
    </Modal>
  );
}
