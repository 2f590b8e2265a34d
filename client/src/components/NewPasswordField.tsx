import { useTranslation } from 'react-i18next';
import { TextField } from './FormField';

/** The new password of a change or a reset, with the rule of its length as a hint. */
export function NewPasswordField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  return (
    <TextField
      label={t('password.new')}
      type="password"
      value={value}
      onChange={onChange}
      autoComplete="new-password"
      hint={t('users.passwordHint')}
      required
    />
  );
}
