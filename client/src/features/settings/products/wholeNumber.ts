// The product's price and points value as typed (docs/screens.md, "Forms"): digits only (anything else
// is stripped), an empty field is 0, shown with Colombian thousands grouping (1.234.567).

import { digitsOnly, formatDigits } from '../../../lib/format';

/** At most 15 digits, so the value stays an exact JavaScript number. */
const MAX_DIGITS = 15;

/** The digits that count in what was typed: others stripped, no leading zeros, at most 15. */
export function wholeNumberDigits(typed: string): string {
  return digitsOnly(typed).replace(/^0+(?=\d)/, '').slice(0, MAX_DIGITS);
}

/** The whole number in what was typed: non-digits stripped, empty is 0. */
export function parseWholeNumber(typed: string): number {
  const digits = wholeNumberDigits(typed);
  return digits === '' ? 0 : Number(digits);
}

/** A whole number as the field shows it: 1234567 is '1.234.567'. */
export function formatWholeNumber(value: number): string {
  const whole = Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
  return formatDigits(String(whole), 'es');
}
