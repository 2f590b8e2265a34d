import i18n, { type BackendModule, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LOCALES, isLocale, type Locale } from '../lib/format';

export const DEFAULT_LOCALE: Locale = 'es';

type Texts = typeof import('./es.json');

/**
 * Each language's texts are a chunk of their own (Vite makes one per dynamic import), so a
 * visitor downloads only the language they read; the other comes when they switch to it
 * (docs/performance.md, "Initial JavaScript").
 */
const LOADERS: Record<Locale, () => Promise<{ default: Texts }>> = {
  es: () => import('./es.json'),
  en: () => import('./en.json'),
};

/** An i18next backend that loads a language's texts from its chunk. */
export const languageChunks: BackendModule = {
  type: 'backend',
  callbackApi: false,
  init() {},
  async read(language: string) {
    if (!isLocale(language)) throw new Error(`no texts for language ${language}`);
    return (await LOADERS[language]()).default;
  },
};

/**
 * Initialises `instance` in `locale`, loading that language's texts only; `changeLanguage`
 * loads another's before it switches, so no key shows untranslated meanwhile. Should a load
 * fail (no network, no service worker yet), texts fall back to a language already loaded.
 */
export function initI18n(instance: I18n, locale: Locale): Promise<unknown> {
  return instance.use(languageChunks).init({
    lng: locale,
    fallbackLng: (code: string) =>
      LOCALES.filter((other) => other !== code && instance.hasResourceBundle(other, 'translation')),
    supportedLngs: [...LOCALES],
    interpolation: { escapeValue: false },
    returnNull: false,
  });
}

let initialised: Promise<unknown> | undefined;

/**
 * Initialises the shared i18next instance once, or switches its language. Resolves once the
 * language's texts are in: the app renders only then (main.tsx).
 */
export function setupI18n(locale: Locale): Promise<unknown> {
  const switchTo = () => (i18n.language === locale ? undefined : i18n.changeLanguage(locale));
  // Once initialised, at once: with the texts loaded already, the switch is synchronous.
  if (i18n.isInitialized) return Promise.resolve(switchTo());
  initialised ??= initI18n(i18n.use(initReactI18next), locale);
  return initialised.then(switchTo);
}

export { i18n };
