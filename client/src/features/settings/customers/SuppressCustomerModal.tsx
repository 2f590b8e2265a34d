import { ExclamationTriangleIcon } from '@heroicons/react/24/outline';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../../app/feedback';
import { useAppDispatch } from '../../../app/hooks';
import { toastShown } from '../../../app/toasts';
import { Modal } from '../../../components/Modal';
import type { Customer } from '../../../lib/types';
import { useSuppressCustomerMutation } from './customersApi';

/**
 * The confirmation of a suppression (docs/privacy.md, "Suppression"): what happens, for good, then
 * Cancel and Suppress. The server's answer (deleted, or anonymised with its history kept) is shown
 * as it comes, in the user's language.
 */
export function SuppressCustomerModal({ customer, onClose }: { customer: Customer; onClose: () => void }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const feedback = useFeedback();
  const [suppress, { isLoading }] = useSuppressCustomerMutation();

  const confirm = async () => {
    try {
      const result = await suppress(customer.id).unwrap();
      dispatch(toastShown('success', { message: result.message }));
      onClose();
    } catch (error) {
      feedback.failure(error);
    }
  };

  return (
    <Modal open title={t('customers.suppress.title')} onClose={onClose} size="sm" tone="danger" busy={isLoading}>
      <div className="confirm-body">
        <ExclamationTriangleIcon className="confirm-icon" aria-hidden="true" />
        <p data-testid="suppress-text">{t('customers.suppress.text', { name: customer.name })}</p>
      </div>
      <div className="modal-actions">
        <button type="button" className="btn btn-secondary" onClick={onClose} disabled={isLoading}>
          {t('common.cancel')}
        </button>
        <button type="button" className="btn btn-danger" onClick={() => void confirm()} disabled={isLoading}>
          {isLoading ? t('customers.suppress.working') : t('customers.suppress.confirm')}
        </button>
      </div>
    </Modal>
  );
}
