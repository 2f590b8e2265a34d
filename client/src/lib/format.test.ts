// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { digitsOnly, formatCurrency, formatDateTime, formatDigits, formatNumber, intlLocale } from './format';

// Intl puts non-breaking spaces in some formats; compare with plain spaces.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('number formatting', () => {
  it('maps the interface languages to es-CO and en-US', () => {
    expect(intlLocale('es')).toBe('es-CO');
    expect(intlLocale('en')).toBe('en-US');
  });

  it('groups thousands with dots in Spanish and commas in English', () => {
    expect(formatNumber(1234567, 'es')).toBe('1.234.567');
    expect(formatNumber(1234567, 'en')).toBe('1,234,567');
  });

  it('shows no decimals', () => {
    expect(formatNumber(1234.56, 'es')).toBe('1.235');
    expect(formatNumber(1234.4, 'en')).toBe('1,234');
  });

  it('keeps small and negative numbers readable', () => {
    expect(formatNumber(0, 'es')).toBe('0');
    expect(formatNumber(999, 'en')).toBe('999');
    expect(formatNumber(-2500, 'es')).toBe('-2.500');
    expect(formatNumber(-2500, 'en')).toBe('-2,500');
  });

  it('formats COP with the peso sign, grouping and no decimals', () => {
    expect(plain(formatCurrency(1234567, 'es'))).toBe('$ 1.234.567');
    expect(plain(formatCurrency(1234567, 'en'))).toBe('$1,234,567');
    expect(plain(formatCurrency(1500.75, 'es'))).toBe('$ 1.501');
  });

  it('formats dates on a 24-hour clock', () => {
    const date = new Date(2026, 0, 5, 18, 7);
    expect(plain(formatDateTime(date, 'es'))).toMatch(/18:07/);
    expect(plain(formatDateTime(date, 'en'))).toMatch(/18:07/);
    expect(formatDateTime('not a date', 'es')).toBe('');
  });
});

describe('digit inputs', () => {
  it('keeps only digits', () => {
    expect(digitsOnly('1.234.567-8 abc')).toBe('12345678');
    expect(digitsOnly('')).toBe('');
  });

  it('shows digits with the locale grouping without losing long document numbers', () => {
    expect(formatDigits('1234567', 'es')).toBe('1.234.567');
    expect(formatDigits('1234567', 'en')).toBe('1,234,567');
    expect(formatDigits('12345678901234567890', 'es')).toBe('12.345.678.901.234.567.890');
    expect(formatDigits('', 'es')).toBe('');
    expect(formatDigits('007', 'es')).toBe('7');
  });
});
