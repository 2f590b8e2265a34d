import { ArrowRightEndOnRectangleIcon, SparklesIcon } from '@heroicons/react/24/outline';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { apiErrorMessage, apiErrorStatus } from '../../app/api';
import { useAppDispatch } from '../../app/hooks';
import { loggedIn } from '../../app/session';
import { FormError, TextField } from '../../components/FormField';
import { LanguageMenu } from '../../components/LanguageMenu';
import { ThemeToggle } from '../../components/ThemeToggle';
import { paths } from '../../lib/paths';
import { useLoginMutation } from './authApi';

interface RememberedLocation {
  from?: { pathname?: string; search?: string; hash?: string };
}

/**
 * A path on this site: exactly one leading `/`. Browsers read `//host`, `/\host` and a `/`
 * followed by tabs or line breaks and then `/` as another host, so backslashes, whitespace and
 * control characters are refused anywhere.
 */
export function isOwnPath(path: unknown): path is string {
  if (typeof path !== 'string' || !path.startsWith('/') || path.startsWith('//')) return false;
  // eslint-disable-next-line no-control-regex
  return !/[\\\s\u0000-\u001f\u007f]/.test(path);
}

/** Where to go after login: super admins to /superadmin, others back to what they asked for. */
export function afterLoginPath(role: string, state: unknown): string {
  if (role === 'super_admin') return paths.superAdmin;
  const from = (state as RememberedLocation | null)?.from;
  if (!isOwnPath(from?.pathname) || from.pathname === paths.login) return paths.root;
  const search = typeof from.search === 'string' && from.search.startsWith('?') ? from.search : '';
  const hash = typeof from.hash === 'string' && from.hash.startsWith('#') ? from.hash : '';
  const path = `${from.pathname}${search}${hash}`;
  return isOwnPath(path) ? path : from.pathname;
}

export function LoginPage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const [login, { isLoading }] = useLoginMutation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (isLoading) return;
    if (username.trim() === '' || password === '') {
      setError(t('login.errorRequired'));
      return;
    }
    setError(null);
    try {
      const result = await login({ username: username.trim(), password }).unwrap();
      dispatch(loggedIn(result));
      navigate(afterLoginPath(result.user.role, location.state), { replace: true });
    } catch (failure) {
      const status = apiErrorStatus(failure);
      if (status === 401 || status === 400 || status === 403 || status === 404) setError(t('login.error'));
      else setError(apiErrorMessage(failure) ?? t('common.errorGeneric'));
    }
  }

  return (
    <div className="login-page">
      <div className="login-tools">
        <ThemeToggle />
        <LanguageMenu />
      </div>
      <main className="login-card card">
        <div className="login-brand">
          <SparklesIcon className="login-brand-icon" aria-hidden="true" />
          <span className="login-brand-name">{t('app.name')}</span>
        </div>
        <h1 className="login-title">{t('login.title')}</h1>
        <p className="login-subtitle">{t('login.subtitle')}</p>
        <form onSubmit={handleSubmit} noValidate className="form-fields">
          <TextField
            label={t('login.username')}
            name="username"
            value={username}
            onChange={setUsername}
            placeholder={t('login.usernamePlaceholder')}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
            autoFocus
          />
          <TextField
            label={t('login.password')}
            name="password"
            type="password"
            value={password}
            onChange={setPassword}
            autoComplete="current-password"
            required
          />
          <button type="submit" className="btn btn-primary btn-block" disabled={isLoading}>
            <ArrowRightEndOnRectangleIcon aria-hidden="true" />
            {isLoading ? t('login.submitting') : t('login.submit')}
          </button>
          <FormError message={error} />
        </form>
      </main>
    </div>
  );
}
