import { ExclamationTriangleIcon } from '@heroicons/react/24/outline';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError, TextField } from '../../components/FormField';
import { Modal } from '../../components/Modal';
import { useFormat } from '../../app/useFormat';
import type { Transaction } from '../../lib/types';

export interface VoidCredentials {
  supervisorUsername: string;
  supervisorPassword: string;
}

export interface VoidDialogProps {
  transaction: Transaction;
  /** A cajero must give a supervisor's username and password; others only confirm. */
  needsSupervisor: boolean;
  companyPrefix: string | null;
  submitting: boolean;
  /** Shown inside the dialog (e.g. wrong supervisor credentials), so the cajero can try again. */
  error: string | null;
  onCancel: () => void;
  onConfirm: (credentials: VoidCredentials | null) => void;
}

/** Confirms a void; for a cajero, with the supervisor's credentials. */
export function VoidDialog({ transaction, needsSupervisor, companyPrefix, submitting, error, onCancel, onConfirm }: VoidDialogProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState(false);

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (submitting) return;
    if (!needsSupervisor) {
      onConfirm(null);
      return;
    }
    if (username.trim() === '' || password === '') {
      setMissing(true);
      return;
    }
    setMissing(false);
    onConfirm({ supervisorUsername: username.trim(), supervisorPassword: password });
  }

  return (
    <Modal open title={t('reports.void.title')} onClose={onCancel} busy={submitting} tone="danger" size="sm">
      <form onSubmit={handleSubmit} noValidate>
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
          <div className="form-fields void-credentials">
            <p className="field-hint">{t('reports.void.supervisorHint')}</p>
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
        <FormError message={missing ? t('reports.void.credentialsRequired') : error} />
        <div className="modal-actions">
          <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={submitting}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="btn btn-danger" disabled={submitting}>
            {submitting ? t('reports.void.voiding') : t('reports.void.button')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
