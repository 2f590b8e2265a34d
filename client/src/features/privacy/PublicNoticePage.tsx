import { ShieldCheckIcon } from '@heroicons/react/24/outline';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { apiErrorStatus } from '../../app/api';
import { useFormat } from '../../app/useFormat';
import { LanguageMenu } from '../../components/LanguageMenu';
import { ThemeToggle } from '../../components/ThemeToggle';
import { useGetPublicNoticeQuery } from './privacyApi';

/**
 * /privacidad/{prefix}: the company's privacy notice in force, for anyone, without logging in. The
 * page's own words follow the chosen language; the notice is the company's text as published.
 */
export function PublicNoticePage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { prefix = '' } = useParams();
  const query = useGetPublicNoticeQuery(prefix);
  const notice = query.data;
  return (
    <div className="login-page privacy-public">
      <div className="login-tools">
        <ThemeToggle />
        <LanguageMenu />
      </div>
      <main className="card privacy-public-card">
        <div className="login-brand">
          <ShieldCheckIcon className="login-brand-icon" aria-hidden="true" />
          <span className="login-brand-name">{t('privacy.public.kicker')}</span>
        </div>
        {query.isLoading ? (
          <p role="status">{t('privacy.public.loading')}</p>
        ) : notice ? (
          <article aria-labelledby="privacy-title">
            <h1 id="privacy-title" className="login-title">
              {t('privacy.public.title', { company: notice.company })}
            </h1>
            <p className="page-subtitle">
              {t('privacy.public.version', { version: notice.version, date: format.dateTime(notice.publishedAt) })}
            </p>
            <div className="privacy-notice-body">{notice.body}</div>
            <h2 className="privacy-purposes-title">{t('privacy.public.purposes')}</h2>
            <ul className="privacy-purposes">
              {notice.purposes.map((purpose) => (
                <li key={purpose.key}>
                  {purpose.description}{' '}
                  <em>{purpose.required ? t('privacy.consent.required') : t('privacy.consent.optional')}</em>
                </li>
              ))}
            </ul>
          </article>
        ) : (
          <p role="alert">
            {apiErrorStatus(query.error) === 404 ? t('privacy.public.notFound') : t('common.errorGeneric')}
          </p>
        )}
      </main>
    </div>
  );
}
