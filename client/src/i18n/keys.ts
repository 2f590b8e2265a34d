import type { ParseKeys } from 'i18next';

/** A translation key that exists in the resource files (checked by the compiler). */
export type TKey = ParseKeys<'translation'>;
