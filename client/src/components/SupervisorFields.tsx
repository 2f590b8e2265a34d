import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from './FormField';

/** What the server takes to approve a cajero's void or return, or an accreditation over a limit. */
export interface SupervisorCredentials {
  supervisorUsername: string;
  supervisorPassword: string;
}

export interface SupervisorCredentialsState {
  username: string;
  password: string;
  setUsername: (value: string) => void;
  setPassword: (value: string) => void;
  /** The credentials as the server takes them, or null while either field is empty. */
  complete: () => SupervisorCredentials | null;
}

/**
 * The state of a dialog's supervisor fields: a cajero's void or return (docs/points.md,
 * "Returns"), an accreditation beyond a velocity limit ("Velocity limits").
 */
export function useSupervisorCredentials(): SupervisorCredentialsState {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  return {
    username,
    password,
    setUsername,
    setPassword,
    complete: () =>
      username.trim() === '' || password === '' ? null : { supervisorUsername: username.trim(), supervisorPassword: password },
  };
}

export interface SupervisorFieldsProps {
  credentials: SupervisorCredentialsState;
  /** Why a supervisor must sign: shown above the fields. */
  hint: string;
  /** The company's prefix, for the username's placeholder (`usuario@prefijo`). */
  companyPrefix: string | null;
}

/** A supervisor's username and password, as every approval at the till asks for them. */
export function SupervisorFields({ credentials, hint, companyPrefix }: SupervisorFieldsProps) {
  const { t } = useTranslation();
  return (
    <div className="form-fields supervisor-credentials">
      <p className="field-hint">{hint}</p>
      <TextField
        label={t('supervisorCredentials.username')}
        value={credentials.username}
        onChange={credentials.setUsername}
        placeholder={companyPrefix ? t('supervisorCredentials.placeholder', { prefix: companyPrefix }) : undefined}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        required
      />
      <TextField
        label={t('supervisorCredentials.password')}
        type="password"
        value={credentials.password}
        onChange={credentials.setPassword}
        autoComplete="off"
        required
      />
    </div>
  );
}
