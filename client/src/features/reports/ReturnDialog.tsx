import { ArrowUturnLeftIcon } from '@heroicons/react/24/outline';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/FormDialog';
import { TextField } from '../../components/FormField';
import { SupervisorFields, useSupervisorCredentials, type SupervisorCredentials } from '../../components/SupervisorFields';
import { useFormat } from '../../app/useFormat';
import type { Transaction } from '../../lib/types';

export interface ReturnInput {
  returnedAmount: number;
  invoiceReference: string;
  credentials: SupervisorCredentials | null;
}

export interface ReturnDialogProps {
  /** The accreditation whose invoice is (partly) given back. */
  transaction: Transaction;
  /** A cajero must give a supervisor's username and password, as for a void. */
  needsSupervisor: boolean;
  companyPrefix: string | null;
  submitting: boolean;
  /** Shown inside the dialog (e.g. points already spent), so the user can correct and retry. */
  error: string | null;
  onCancel: () => void;
  onConfirm: (input: ReturnInput) => void;
}

/** Records a return of part or all of an accreditation's invoice (docs/points.md, "Returns"). */
export function ReturnDialog({ transaction, needsSupervisor, companyPrefix, submitting, error, onCancel, onConfirm }: ReturnDialogProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const [amount, setAmount] = useState('');
  const [reference, setReference] = useState('');
  const supervisor = useSupervisorCredentials();
  const [problem, setProblem] = useState<string | null>(null);

  function handleSubmit() {
    const digits = amount.replace(/[.\s]/g, '');
    const returnedAmount = Number(digits);
    if (!/^\d+$/.test(digits) || !Number.isSafeInteger(returnedAmount) || returnedAmount <= 0) {
      setProblem(t('reports.return.amountRequired'));
      return;
    }
    const credentials = needsSupervisor ? supervisor.complete() : null;
    if (needsSupervisor && credentials === null) {
      setProblem(t('supervisorCredentials.required'));
      return;
    }
    setProblem(null);
    onConfirm({ returnedAmount, invoiceReference: reference.trim(), credentials });
  }

  return (
    <FormDialog
      open
      title={t('reports.return.title')}
      onClose={onCancel}
      onSubmit={handleSubmit}
      submitting={submitting}
      error={problem ?? error}
      submitLabel={t('reports.return.submit')}
      submittingLabel={t('reports.return.submitting')}
      size="sm"
    >
      <div className="confirm-body">
        <ArrowUturnLeftIcon className="confirm-icon" aria-hidden="true" />
        <div>
          <p>
            {t('reports.return.intro', {
              id: transaction.id,
              customer: transaction.customerName,
              invoice: format.currency(transaction.invoiceAmount ?? 0),
              points: format.number(transaction.points),
            })}
          </p>
          <p className="field-hint">{t('reports.return.hint')}</p>
        </div>
      </div>
      <div className="form-fields">
        <TextField
          label={t('reports.return.amount')}
          value={amount}
          onChange={setAmount}
          inputMode="numeric"
          autoComplete="off"
          required
        />
        <TextField label={t('reports.return.reference')} value={reference} onChange={setReference} maxLength={100} autoComplete="off" />
      </div>
      {needsSupervisor ? (
        <SupervisorFields credentials={supervisor} hint={t('reports.return.supervisorHint')} companyPrefix={companyPrefix} />
      ) : null}
    </FormDialog>
  );
}
