import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiErrorMessage } from '../../app/api';
import { useAppDispatch } from '../../app/hooks';
import { toastShown } from '../../app/toasts';
import { FormDialog } from '../../components/FormDialog';
import { ConsentFields, useCurrentNotice } from './ConsentFields';
import { useGetCustomerConsentsQuery, useUpdateCustomerConsentsMutation } from './privacyApi';

export interface ConsentsDialogProps {
  customer: { id: number; name: string };
  onClose: () => void;
}

/**
 * A customer's authorizations after enrolment (docs/privacy.md): the notice in force with the
 * purposes the customer has granted ticked. Saving records what changed, at the store; unticking
 * the required purpose files a reclamo instead, as the screen warns.
 */
export function ConsentsDialog({ customer, onClose }: ConsentsDialogProps) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const { notice, error: noticeError } = useCurrentNotice();
  const consents = useGetCustomerConsentsQuery(customer.id, { refetchOnMountOrArgChange: true });
  const [update, { isLoading }] = useUpdateCustomerConsentsMutation();
  const granted = (consents.data?.current ?? []).filter((record) => record.granted).map((record) => record.purpose);
  const [ticked, setTicked] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const value = ticked ?? granted;
  const purposes = notice?.purposes ?? [];
  const changes = Object.fromEntries(
    purposes.filter((p) => value.includes(p.key) !== granted.includes(p.key)).map((p) => [p.key, value.includes(p.key)]),
  );
  const revokesRequired = purposes.some((p) => p.required && granted.includes(p.key) && !value.includes(p.key));

  async function submit() {
    if (Object.keys(changes).length === 0) {
      setError(t('privacy.consents.noChange'));
      return;
    }
    try {
      const result = await update({ id: customer.id, body: { channel: 'store', purposes: changes } }).unwrap();
      const message = result.revocationRequestId
        ? t('privacy.consents.revocationFiled', { name: customer.name })
        : t('privacy.consents.saved', { name: customer.name });
      dispatch(toastShown('success', { message }));
      onClose();
    } catch (failure) {
      setError(apiErrorMessage(failure) ?? t('common.errorGeneric'));
    }
  }

  return (
    <FormDialog
      open
      title={t('privacy.consents.title', { name: customer.name })}
      onClose={onClose}
      onSubmit={() => void submit()}
      submitting={isLoading}
      error={error ?? noticeError}
      submitLabel={t('privacy.consents.save')}
      submittingLabel={t('privacy.consents.saving')}
    >
      {consents.isLoading ? (
        <p className="field-hint" role="status">
          {t('privacy.consent.loading')}
        </p>
      ) : (
        <ConsentFields
          notice={notice}
          value={value}
          onChange={(next) => {
            setTicked(next);
            setError(null);
          }}
        />
      )}
      {revokesRequired ? (
        <p className="notice tone-warning" data-testid="revocation-warning">
          {t('privacy.consents.revokeRequiredWarning')}
        </p>
      ) : null}
    </FormDialog>
  );
}
