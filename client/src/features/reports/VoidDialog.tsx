import { ExclamationTriangleIcon } from '@heroicons/react/24/outline';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/FormDialog';
import { SupervisorFields, useSupervisorCredentials, type SupervisorCredentials } from '../../components/SupervisorFields';
import { useFormat } from '../../app/useFormat';
import type { Transaction } from '../../lib/types';

export interface VoidDialogProps {
  transaction: Transaction;
  /** A cajero must give a supervisor's username and password; others only confirm. */
  needsSupervisor: boolean;
  companyPrefix: string | null;
  submitting: boolean;
  /** Shown inside the dialog (e.g. wrong supervisor credentials), so the cajero can try again. */
  error: string | null;
  onCancel: () => void;
  onConfirm: (credentials: SupervisorCredentials | null) => void;
}

/** Confirms a void; for a cajero, with the supervisor's credentials. */
export function VoidDialog({ transaction, needsSupervisor, companyPrefix, submitting, error, onCancel, onConfirm }: VoidDialogProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const supervisor = useSupervisorCredentials();
  const [missing, setMissing] = useState(false);

  function handleSubmit() {
    if (!needsSupervisor) {
      onConfirm(null);
      return;
    }
    const credentials = supervisor.complete();
    setMissing(credentials === null);
    if (credentials) onConfirm(credentials);
  }

  return (
    <FormDialog
      open
      title={t('reports.void.title')}
      onClose={onCancel}
      onSubmit={handleSubmit}
      submitting={submitting}
      error={missing ? t('supervisorCredentials.required') : error}
      submitLabel={t('reports.void.button')}
      submittingLabel={t('reports.void.voiding')}
      tone="danger"
      size="sm"
    >
      <div className="confirm-body">
        <ExclamationTriangleIcon className="confirm-icon" aria-hidden="true" />
        <div>
          <p>
            {t('reports.void.confirm', {
              id: transaction.id,
              type: t(`reports.types.${transaction.type}`),
              points: format.number(transaction.points),
              customer: transaction.customerName,
            })}
          </p>
          <p className="field-hint">{t('reports.void.irreversible')}</p>
        </div>
      </div>
      {needsSupervisor ? (
        <SupervisorFields credentials={supervisor} hint={t('reports.void.supervisorHint')} companyPrefix={companyPrefix} />
      ) : null}
    </FormDialog>
  );
}
