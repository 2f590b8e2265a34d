import type { Locale } from './format';

/**
 * A customer's ID document as the server stores and compares it (`normalize_document` in
 * server/src/domain.rs): dots and white space dropped, letters upper-cased, everything else kept
 * (the server refuses what is not a digit, a letter or '-'). "1.098.765.432" is 1098765432,
 * "pa-778899" is PA-778899.
 */
export function normalizeDocument(value: string): string {
  return value.replace(/[.\s]+/g, '').toUpperCase();
}

/** Whether a document is made of digits only (a cédula), and so is shown grouped by thousands. */
export function isAllDigits(document: string): boolean {
  return /^\d+$/.test(document);
}

/** The grouping separator of a language (1.098.765.432 or 1,098,765,432). */
export function groupSeparator(locale: Locale): string {
  return locale === 'en' ? ',' : '.';
}

/** A document as shown: thousands grouping for all-digit documents, any other as stored. */
export function formatDocument(document: string, locale: Locale): string {
  if (!isAllDigits(document)) return document;
  return document.replace(/\B(?=(\d{3})+(?!\d))/g, groupSeparator(locale));
}
