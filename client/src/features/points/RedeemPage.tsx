import { useTranslation } from 'react-i18next';
import { RedeemForm } from './RedeemForm';
import { PageHeader } from '../../components/PageHeader';

/** /redimir: find a customer, pick a product or type points, redeem, print the receipt. */
export function RedeemPage() {
  const { t } = useTranslation();
  return (
    <section className="page">
      <PageHeader title={t('redeem.title')} subtitle={t('redeem.subtitle')} />
      <RedeemForm variant="full" />
    </section>
  );
}
