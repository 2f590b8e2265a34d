import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../app/hooks';
import { selectLocale, selectTheme, type Theme } from '../app/preferences';
import { intlLocale } from '../lib/format';

/** Puts the theme class on <html> (light default, dark). */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  root.classList.toggle('dark', theme === 'dark');
  root.classList.toggle('light', theme === 'light');
  root.style.colorScheme = theme;
}

/** Keeps <html> (theme class, lang), i18next and the document title in step with the store. */
export function PreferencesSync() {
  const theme = useAppSelector(selectTheme);
  const locale = useAppSelector(selectLocale);
  const { t, i18n } = useTranslation();

  useEffect(() => {
    applyTheme(theme);
  }, [theme]);

  useEffect(() => {
    if (i18n.language !== locale) void i18n.changeLanguage(locale);
    document.documentElement.lang = intlLocale(locale);
  }, [locale, i18n]);

  const title = t('app.name');
  useEffect(() => {
    document.title = title;
  }, [title]);

  return null;
}
