import { useMemo } from 'react';
import { formatDocument } from '../lib/document';
import { formatCurrency, formatDateTime, formatDecimal, formatDigits, formatNumber, type Locale } from '../lib/format';
import { useAppSelector } from './hooks';
import { selectLocale } from './preferences';

export interface Formatters {
  locale: Locale;
  number: (value: number) => string;
  /** Up to 3 decimals (multipliers, rates). */
  decimal: (value: number) => string;
  currency: (value: number) => string;
  dateTime: (value: string | Date) => string;
  digits: (value: string) => string;
  /** An ID document: grouped by thousands when all digits, else as stored. */
  document: (value: string) => string;
}

/** Number, money and date formatting bound to the current interface language. */
export function useFormat(): Formatters {
  const locale = useAppSelector(selectLocale);
  return useMemo(
    () => ({
      locale,
      number: (value: number) => formatNumber(value, locale),
      decimal: (value: number) => formatDecimal(value, locale),
      currency: (value: number) => formatCurrency(value, locale),
      dateTime: (value: string | Date) => formatDateTime(value, locale),
      digits: (value: string) => formatDigits(value, locale),
      document: (value: string) => formatDocument(value, locale),
    }),
    [locale],
  );
}
