import i18n, { type BackendModule, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LOCALES, isLocale, type Locale } from '../lib/format';
import { joinParts } from './parts';

export const DEFAULT_LOCALE: Locale = 'es';

type Part = () => Promise<{ default: Record<string, unknown> }>;

/**
 * Each language's texts are two chunks of their own (Vite makes one per dynamic import): a
 * visitor downloads only the language they read, and of it first the texts the login, the till
 * and the dashboard use, then the rest (src/i18n/parts.ts); the other language comes whole when
 * they switch to it (docs/performance.md, "Initial JavaScript").
 */
const PARTS: Record<Locale, { first: Part; later: Part }> = {
  es: { first: () => import('./es.json?part=first'), later: () => import('./es.json?part=later') },
  en: { first: () => import('./en.json?part=first'), later: () => import('./en.json?part=later') },
};

/** An i18next backend that loads a language's texts, both parts, from their chunks. */
export const languageChunks: BackendModule = {
  type: 'backend',
  callbackApi: false,
  init() {},
  async read(language: string) {
    if (!isLocale(language)) throw new Error(`no texts for language ${language}`);
    const [first, later] = await Promise.all([PARTS[language].first(), PARTS[language].later()]);
    return joinParts(first.default, later.default);
  },
};

/** Per instance, the load of the later part of the language it started in. */
const laterLoads = new WeakMap<I18n, Promise<void>>();

/**
 * Resolves once the texts of the screens loaded later are in (at once when they are, or when
 * the instance was not started by `initI18n`). A failed download is logged, not thrown: the
 * screen still opens, showing what texts there are.
 */
export function laterTexts(instance: I18n = i18n): Promise<void> {
  return laterLoads.get(instance) ?? Promise.resolve();
}

/** `module` once it and the texts of the screens loaded later are in: for a lazy screen's import. */
export function withLaterTexts<T>(module: Promise<T>): Promise<T> {
  return Promise.all([module, laterTexts()]).then(([loaded]) => loaded);
}

/**
 * Initialises `instance` in `locale` with the first part of that language's texts, and starts
 * loading the rest (`laterTexts`); components re-render when it arrives. `changeLanguage`
 * loads another language whole before it switches, so no key shows untranslated meanwhile.
 * Should a load fail (no network, no service worker yet), texts fall back to a language
 * already loaded.
 */
export async function initI18n(instance: I18n, locale: Locale): Promise<unknown> {
  const first = (await PARTS[locale].first()).default;
  const initialised = await instance.use(languageChunks).init({
    lng: locale,
    resources: { [locale]: { translation: first } },
    partialBundledLanguages: true,
    fallbackLng: (code: string) =>
      LOCALES.filter((other) => other !== code && instance.hasResourceBundle(other, 'translation')),
    supportedLngs: [...LOCALES],
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { bindI18nStore: 'added' },
  });
  laterLoads.set(
    instance,
    PARTS[locale]
      .later()
      .then(({ default: later }) => {
        instance.addResourceBundle(locale, 'translation', later, true, false);
      })
      .catch((error: unknown) => {
        console.warn('The texts of the later screens could not be loaded', error);
      }),
  );
  return initialised;
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
