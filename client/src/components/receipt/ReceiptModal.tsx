import { PrinterIcon } from '@heroicons/react/24/outline';
import { useTranslation } from 'react-i18next';
import { Modal } from '../Modal';
import { Receipt, type ReceiptData } from './Receipt';

export interface ReceiptModalProps {
  data: ReceiptData | null;
  /** Cancel/close: the redeem form resets; the report just closes it. */
  onClose: () => void;
  /** Label of the closing button (default 'Close'). */
  closeLabel?: string;
}

/** The receipt in a dialog with Close and Print; printing prints only the receipt. */
export function ReceiptModal({ data, onClose, closeLabel }: ReceiptModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      open={data !== null}
      title={data?.transaction.type === 'return' ? t('receipt.returnTitle') : t('receipt.dialogTitle')}
      onClose={onClose}
      size="sm"
      footer={
        <div className="modal-actions receipt-actions">
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            {closeLabel ?? t('common.close')}
          </button>
          <button type="button" className="btn btn-primary" onClick={() => window.print()}>
            <PrinterIcon aria-hidden="true" />
            {t('common.print')}
          </button>
        </div>
      }
    >
      {data ? (
        <div className="receipt-frame">
          <Receipt data={data} />
        </div>
      ) : null}
    </Modal>
  );
}
