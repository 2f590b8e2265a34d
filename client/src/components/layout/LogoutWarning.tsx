import { useTranslation } from 'react-i18next';
import { Modal } from '../Modal';

/** Logging out with accreditations still on the device: they stay, and are sent by the company's next session here. */
export function LogoutWarning({ pending, onCancel, onConfirm }: { pending: number; onCancel: () => void; onConfirm: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={t('offline.logoutTitle')}
      onClose={onCancel}
      size="sm"
      footer={
        <div className="modal-actions">
          <button type="button" className="btn btn-secondary" onClick={onCancel}>
            {t('common.cancel')}
          </button>
          <button type="button" className="btn btn-primary" onClick={onConfirm}>
            {t('offline.logoutConfirm')}
          </button>
        </div>
      }
    >
      <p data-testid="logout-warning">{t('offline.logoutText', { count: pending })}</p>
    </Modal>
  );
}
