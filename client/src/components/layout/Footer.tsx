import { useTranslation } from 'react-i18next';

export function Footer() {
  const { t } = useTranslation();
  return (
    <footer className="app-footer">
      <span>{t('footer.copyright', { year: new Date().getFullYear(), app: t('app.name') })}</span>
      <span className="app-footer-note">{t('footer.currency')}</span>
    </footer>
  );
}
