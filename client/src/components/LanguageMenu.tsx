import { LanguageIcon } from '@heroicons/react/24/outline';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../app/hooks';
import { selectLocale } from '../app/preferences';

// The menu's floating list (Floating UI) is loaded after the first screen, not with it: the login
// and the cashier's dashboard draw before it arrives (docs/performance.md, "Initial JavaScript").
const LanguageMenuButton = lazy(() => import('./LanguageMenuButton'));

/** Language menu: Español (default) or English; a disabled look-alike until its code arrives. */
export function LanguageMenu() {
  const { t } = useTranslation();
  const locale = useAppSelector(selectLocale);
  const placeholder = (
    <button
      type="button"
      className="icon-button menu-trigger"
      aria-label={t('language.trigger', { code: locale.toUpperCase(), name: t(`language.${locale}`) })}
      data-testid="language-menu"
      disabled
    >
      <LanguageIcon aria-hidden="true" />
      <span className="menu-trigger-code">{locale.toUpperCase()}</span>
    </button>
  );
  return (
    <Suspense fallback={placeholder}>
      <LanguageMenuButton />
    </Suspense>
  );
}
