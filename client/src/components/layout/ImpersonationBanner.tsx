import { ArrowUturnLeftIcon, EyeIcon } from '@heroicons/react/24/outline';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { impersonationEnded, selectUser } from '../../app/session';
import { paths } from '../../lib/paths';

/** Shown while the session carries an impersonatedBy marker; exit restores the super admin. */
export function ImpersonationBanner() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const user = useAppSelector(selectUser);
  if (!user?.impersonatedBy) return null;

  function exit() {
    dispatch(impersonationEnded());
    navigate(paths.superAdmin, { replace: true });
  }

  return (
    <div className="impersonation-banner" role="region" aria-label={t('impersonation.exit')} data-testid="impersonation-banner">
      <EyeIcon className="impersonation-icon" aria-hidden="true" />
      <p className="impersonation-text">
        <span>{t('impersonation.banner', { company: user.company?.name ?? '', username: user.username })}</span>{' '}
        <span className="impersonation-by">{t('impersonation.startedBy', { superAdmin: user.impersonatedBy })}</span>
      </p>
      <button type="button" className="btn btn-sm btn-banner" onClick={exit}>
        <ArrowUturnLeftIcon aria-hidden="true" />
        {t('impersonation.exit')}
      </button>
    </div>
  );
}
