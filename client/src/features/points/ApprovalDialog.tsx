import { ShieldExclamationIcon } from '@heroicons/react/24/outline';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/FormDialog';
import { TextField } from '../../components/FormField';

export interface ApprovalCredentials {
  supervisorUsername: string;
  supervisorPassword: string;
}

export interface ApprovalDialogProps {
  /** Why the server refused the accreditation (the limit and what the customer had today). */
  reason: string;
  companyPrefix: string | null;
  submitting: boolean;
  /** Shown inside the dialog (e.g. wrong credentials), so the cashier can try again. */
  error: string | null;
  onCancel: () => void;
  onApprove: (credentials: ApprovalCredentials) => void;
}

/**
 * An accreditation beyond a velocity limit (docs/points.md, "Velocity limits"): the refusal, and
 * a supervisor's or admin's username and password to approve it.
 */
export function ApprovalDialog({ reason, companyPrefix, submitting, error, onCancel, onApprove }: ApprovalDialogProps) {
  const { t } = useTranslation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState(false);

  function handleSubmit() {
    if (username.trim() === '' || password === '') {
      setMissing(true);
      return;
    }
    setMissing(false);
    onApprove({ supervisorUsername: username.trim(), supervisorPassword: password });
  }

  return (
    <FormDialog
      open
      title={t('accredit.approval.title')}
      onClose={onCancel}
      onSubmit={handleSubmit}
      submitting={submitting}
      error={missing ? t('accredit.approval.credentialsRequired') : error}
      submitLabel={t('accredit.approval.submit')}
      submittingLabel={t('accredit.approval.submitting')}
      size="sm"
      formLabel={t('accredit.approval.title')}
    >
      <div className="confirm-body">
        <ShieldExclamationIcon className="confirm-icon" aria-hidden="true" />
        <div>
          <p data-testid="velocity-refusal">{reason}</p>
          <p className="field-hint">{t('accredit.approval.hint')}</p>
        </div>
      </div>
      <div className="form-fields">
        <TextField
          label={t('accredit.approval.username')}
          value={username}
          onChange={setUsername}
          placeholder={companyPrefix ? t('accredit.approval.placeholder', { prefix: companyPrefix }) : undefined}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          required
        />
        <TextField
          label={t('accredit.approval.password')}
          type="password"
          value={password}
          onChange={setPassword}
          autoComplete="off"
          required
        />
      </div>
    </FormDialog>
  );
}
