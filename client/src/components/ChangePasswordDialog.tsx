import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiErrorMessage } from '../app/api';
import { useAppDispatch } from '../app/hooks';
import { tokenRenewed } from '../app/session';
import { useChangeOwnPasswordMutation } from '../app/tenantApi';
import { toastShown } from '../app/toasts';
import { FormDialog } from './FormDialog';
import { TextField } from './FormField';
import { NewPasswordField } from './NewPasswordField';

const MIN_PASSWORD = 8;
const MAX_PASSWORD = 128;

/** The signed-in user changes their own password; their other sessions end, this one goes on. */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [change, { isLoading }] = useChangeOwnPasswordMutation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeated, setRepeated] = useState('');
  const [error, setError] = useState<string | null>(null);

  function close() {
    setCurrent('');
    setNext('');
    setRepeated('');
    setError(null);
    onClose();
  }

  async function submit() {
    if (current === '' || next === '' || repeated === '') {
      setError(t('password.errorRequired'));
      return;
    }
    if (next.length < MIN_PASSWORD || next.length > MAX_PASSWORD) {
      setError(t('users.errorPasswordLength'));
      return;
    }
    if (next !== repeated) {
      setError(t('password.errorMismatch'));
      return;
    }
    setError(null);
    try {
      const result = await change({ currentPassword: current, newPassword: next }).unwrap();
      dispatch(tokenRenewed(result.token));
      dispatch(toastShown('success', { messageKey: 'password.changed' }));
      close();
    } catch (failure) {
      setError(apiErrorMessage(failure) ?? t('common.errorGeneric'));
    }
  }

  return (
    <FormDialog
      open={open}
      title={t('password.changeTitle')}
      onClose={close}
      onSubmit={() => void submit()}
      submitting={isLoading}
      error={error}
      submitLabel={t('password.change')}
      submittingLabel={t('common.updating')}
      size="sm"
    >
      <div className="form-fields">
        <p className="field-hint">{t('password.changeHint')}</p>
        <TextField label={t('password.current')} type="password" value={current} onChange={setCurrent} autoComplete="current-password" required />
        <NewPasswordField value={next} onChange={setNext} />
        <TextField label={t('password.repeat')} type="password" value={repeated} onChange={setRepeated} autoComplete="new-password" required />
      </div>
    </FormDialog>
  );
}
