import { ArrowUturnLeftIcon } from '@heroicons/react/24/outline';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/FormDialog';
import { TextField } from '../../components/FormField';
import { useFormat } from '../../app/useFormat';
import type { Transaction } from '../../lib/types';
import type { VoidCredentials } from './VoidDialog';

export interface ReturnInput {
  returnedAmount: number;
  invoiceReference: string;
  credentials: VoidCredentials | null;
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
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  function handleSubmit() {
    const digits = amount.replace(/[.\s]/g, '');
    const returnedAmount = Number(digits);
    if (!/^\d+$/.test(digits) || !Number.isSafeInteger(returnedAmount) || returnedAmount <= 0) {
      setProblem(t('reports.return.amountRequired'));
      return;
    }
    if (needsSupervisor && (username.trim() === '' || password === '')) {
      setProblem(t('reports.void.credentialsRequired'));
      return;
    }
    setProblem(null);
    onConfirm({
      returnedAmount,
      invoiceReference: reference.trim(),
      credentials: needsSupervisor ? { supervisorUsername: username.trim(), supervisorPassword: password } : null,
    });
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
        <div className="form-fields void-credentials">
          <p className="field-hint">{t('reports.return.supervisorHint')}</p>
          <TextField
            label={t('reports.void.supervisorUsername')}
            value={username}
            onChange={setUsername}
            placeholder={companyPrefix ? t('reports.void.supervisorPlaceholder', { prefix: companyPrefix }) : undefined}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            required
          />
          <TextField
            label={t('reports.void.supervisorPassword')}
            type="password"
            value={password}
            onChange={setPassword}
            autoComplete="off"
            required
          />
        </div>
      ) : null}
    </FormDialog>
  );
}
