// Numbers, money and dates through Intl, following the interface language (es-CO or en-US).

import { CURRENCY } from './constants';

export type Locale = 'es' | 'en';

export const LOCALES: readonly Locale[] = ['es', 'en'];

export function isLocale(value: unknown): value is Locale {
  return value === 'es' || value === 'en';
}

export function intlLocale(locale: Locale): 'es-CO' | 'en-US' {
  return locale === 'en' ? 'en-US' : 'es-CO';
}

const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function numberFormat(locale: Locale, kind: 'number' | 'currency'): Intl.NumberFormat {
  const key = `${kind}:${locale}`;
  let formatter = formatters.get(key) as Intl.NumberFormat | undefined;
  if (!formatter) {
    formatter = new Intl.NumberFormat(intlLocale(locale), {
      ...(kind === 'currency' ? { style: 'currency', currency: CURRENCY, currencyDisplay: 'narrowSymbol' } : {}),
      useGrouping: true,
      minimumFractionDigits: 0,
      maximumFractionDigits: 0,
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

/** A whole number with thousands grouping: 1.234.567 (es) or 1,234,567 (en). */
export function formatNumber(value: number, locale: Locale): string {
  return numberFormat(locale, 'number').format(value);
}

/** A decimal such as a multiplier or a rate, up to 3 decimals: 1,5 (es) or 1.5 (en). */
export function formatDecimal(value: number, locale: Locale): string {
  const key = `decimal:${locale}`;
  let formatter = formatters.get(key) as Intl.NumberFormat | undefined;
  if (!formatter) {
    formatter = new Intl.NumberFormat(intlLocale(locale), { useGrouping: true, maximumFractionDigits: 3 });
    formatters.set(key, formatter);
  }
  return formatter.format(value);
}

/** A COP amount without decimals: $ 1.234.567 (es) or $1,234,567 (en). */
export function formatCurrency(value: number, locale: Locale): string {
  return numberFormat(locale, 'currency').format(value);
}

/** Date and time on a 24-hour clock. */
export function formatDateTime(value: string | Date, locale: Locale): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return '';
  const key = `datetime:${locale}`;
  let formatter = formatters.get(key) as Intl.DateTimeFormat | undefined;
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(intlLocale(locale), {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(key, formatter);
  }
  return formatter.format(date);
}

/** Keeps only the digits 0-9 (for document numbers, amounts and prices as typed). */
export function digitsOnly(value: string): string {
  return value.replace(/\D+/g, '');
}

/** Shows a digits-only string with thousands grouping; empty stays empty. */
export function formatDigits(digits: string, locale: Locale): string {
  const clean = digitsOnly(digits);
  if (clean === '') return '';
  // Group as a string so long document numbers never lose precision.
  const separator = locale === 'en' ? ',' : '.';
  return clean.replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}
