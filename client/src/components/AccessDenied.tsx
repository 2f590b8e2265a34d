import { ShieldExclamationIcon } from '@heroicons/react/24/outline';
import { useTranslation } from 'react-i18next';

/** Shown to a supervisor or cajero whose role has no permission assigned at all. */
export function AccessDenied() {
  const { t } = useTranslation();
  return (
    <section className="page access-denied" aria-labelledby="access-denied-title">
      <ShieldExclamationIcon className="access-denied-icon" aria-hidden="true" />
      <h1 id="access-denied-title" className="page-title">
        {t('accessDenied.title')}
      </h1>
      <p>{t('accessDenied.noPermissions')}</p>
    </section>
  );
}
