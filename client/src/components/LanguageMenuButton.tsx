import { LanguageIcon } from '@heroicons/react/24/outline';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { localeChanged, selectLocale } from '../app/preferences';
import { LOCALES } from '../lib/format';
import { Menu } from './Menu';

/** Language menu: Español (default) or English. Loaded on its own (LanguageMenu.tsx). */
export default function LanguageMenuButton() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const locale = useAppSelector(selectLocale);

  return (
    <Menu
      // The name starts with the code the button shows (WCAG 2.5.3: the name holds the visible text).
      label={t('language.trigger', { code: locale.toUpperCase(), name: t(`language.${locale}`) })}
      triggerClassName="icon-button menu-trigger"
      testId="language-menu"
      trigger={
        <>
          <LanguageIcon aria-hidden="true" />
          <span className="menu-trigger-code">{locale.toUpperCase()}</span>
        </>
      }
      items={LOCALES.map((option) => ({
        key: option,
        label: t(`language.${option}`),
        lang: option,
        checked: option === locale,
        onSelect: () => dispatch(localeChanged(option)),
      }))}
    />
  );
}
