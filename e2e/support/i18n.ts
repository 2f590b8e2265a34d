// The client's own translation files, so specs find elements by the texts a user reads and follow
// the files when a wording changes. Keys are checked by the compiler.

import en from '../../client/src/i18n/en.json';
import es from '../../client/src/i18n/es.json';

export type Locale = 'es' | 'en';

/** The languages of the app, Spanish first. */
export const LOCALES = ['es', 'en'] as const satisfies readonly Locale[];

type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];

/** A translation key that exists in the Spanish file. */
export type TKey = Leaves<typeof es>;

const resources: Record<Locale, unknown> = { es, en };

/** The translated text of `key`, with `{{name}}` placeholders filled in (as i18next does). */
export function t(key: TKey, params: Record<string, string | number> = {}, locale: Locale = 'es'): string {
  let node: unknown = resources[locale];
  for (const part of key.split('.')) {
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  }
  if (typeof node !== 'string') throw new Error(`missing translation ${locale}:${key}`);
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`translation ${locale}:${key} needs {{${name}}}`);
    return String(params[name]);
  });
}

/** A translation function bound to one language. */
export type Translate = (key: TKey, params?: Record<string, string | number>) => string;

/** Translations bound to one language. */
export function translator(locale: Locale): Translate {
  return (key, params) => t(key, params, locale);
}

/** Whether a key exists yet (screens being built add keys as they land). */
export function hasKey(key: string, locale: Locale = 'es'): boolean {
  let node: unknown = resources[locale];
  for (const part of key.split('.')) {
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  }
  return typeof node === 'string';
}

/** A RegExp matching the text exactly (for names that also appear inside longer texts). */
export function exactly(text: string): RegExp {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}

/** A number grouped as a reader of `locale` expects it (es-CO 1.000, en-US 1,000). */
export function formatNumber(value: number, locale: Locale): string {
  return new Intl.NumberFormat(locale === 'es' ? 'es-CO' : 'en-US').format(value);
}
