import { useTranslation } from 'react-i18next';
import { AccreditForm } from './AccreditForm';
import { PageHeader } from '../../components/PageHeader';

/** /accreditar: find a customer by document and credit points for an invoice. */
export function AccreditPage() {
  const { t } = useTranslation();
  return (
    <section className="page">
      <PageHeader title={t('accredit.title')} subtitle={t('accredit.subtitle')} />
      <div className="card operation-card">
        <AccreditForm />
      </div>
    </section>
  );
}
