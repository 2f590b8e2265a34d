import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Locale } from '../lib/format';
import en from './en.json';
import es from './es.json';

export const resources = {
  es: { translation: es },
  en: { translation: en },
} as const;

export const DEFAULT_LOCALE: Locale = 'es';

/** Initialises the shared i18next instance once (synchronously: the resources are bundled). */
export function setupI18n(locale: Locale): typeof i18n {
  if (!i18n.isInitialized) {
    void i18n.use(initReactI18next).init({
      resources,
      lng: locale,
      fallbackLng: DEFAULT_LOCALE,
      supportedLngs: ['es', 'en'],
      interpolation: { escapeValue: false },
      initAsync: false,
      returnNull: false,
    });
  } else if (i18n.language !== locale) {
    void i18n.changeLanguage(locale);
  }
  return i18n;
}

export { i18n };
