import { ShieldExclamationIcon } from '@heroicons/react/24/outline';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/FormDialog';
import { SupervisorFields, useSupervisorCredentials, type SupervisorCredentials } from '../../components/SupervisorFields';

export interface ApprovalDialogProps {
  /** Why the server refused the accreditation (the limit and what the customer had today). */
  reason: string;
  companyPrefix: string | null;
  submitting: boolean;
  /** Shown inside the dialog (e.g. wrong credentials), so the cashier can try again. */
  error: string | null;
  onCancel: () => void;
  onApprove: (credentials: SupervisorCredentials) => void;
}

/**
 * An accreditation beyond a velocity limit (docs/points.md, "Velocity limits"): the refusal, and
 * a supervisor's or admin's username and password to approve it.
 */
export function ApprovalDialog({ reason, companyPrefix, submitting, error, onCancel, onApprove }: ApprovalDialogProps) {
  const { t } = useTranslation();
  const supervisor = useSupervisorCredentials();
  const [missing, setMissing] = useState(false);

  function handleSubmit() {
    const credentials = supervisor.complete();
    setMissing(credentials === null);
    if (credentials) onApprove(credentials);
  }

  return (
    <FormDialog
      open
      title={t('accredit.approval.title')}
      onClose={onCancel}
      onSubmit={handleSubmit}
      submitting={submitting}
      error={missing ? t('supervisorCredentials.required') : error}
      submitLabel={t('accredit.approval.submit')}
      submittingLabel={t('accredit.approval.submitting')}
      size="sm"
      formLabel={t('accredit.approval.title')}
    >
      <div className="confirm-body">
        <ShieldExclamationIcon className="confirm-icon" aria-hidden="true" />
        <div>
          <p data-testid="velocity-refusal">{reason}</p>
        </div>
      </div>
      <SupervisorFields credentials={supervisor} hint={t('accredit.approval.hint')} companyPrefix={companyPrefix} />
    </FormDialog>
  );
}
