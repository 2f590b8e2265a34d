import { useTranslation } from 'react-i18next';
import type { TKey } from '../i18n/keys';
import { PageHeader } from './PageHeader';

/** A page whose screen is not built yet: its translated title and a short note. */
export function PlaceholderPage({ titleKey }: { titleKey: TKey }) {
  const { t } = useTranslation();
  return (
    <section className="page">
      <PageHeader title={t(titleKey)} />
      <div className="card placeholder-card">
        <p>{t('common.comingSoon')}</p>
      </div>
    </section>
  );
}
