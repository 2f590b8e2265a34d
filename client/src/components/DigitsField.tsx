import type { ReactNode } from 'react';
import { useFormat } from '../app/useFormat';
import { digitsOnly } from '../lib/format';
import { caretAfterKept, FormattedField, type FormattedFieldProps } from './FormattedField';

export interface DigitsFieldProps extends Omit<FormattedFieldProps, 'show' | 'store' | 'isMark' | 'inputMode'> {
  /** The digits only, as stored. */
  value: string;
  onChange: (digits: string) => void;
  prefix?: ReactNode;
}

/** The grouping marks of a digits-only field: anything but a digit. */
export const notADigit = (char: string) => !/\d/.test(char);

/** Where the caret goes to stay after the same number of digits in the formatted text. */
export function caretAfterDigits(formatted: string, digitsBefore: number): number {
  return caretAfterKept(formatted, digitsBefore, notADigit);
}

/** The digits of what was typed, without leading zeros (as the grouped display shows them). */
export function storedDigits(typed: string): string {
  return digitsOnly(typed).replace(/^0+(?=\d)/, '');
}

/**
 * A text input that accepts digits only: whatever is typed or pasted keeps its digits, shown with
 * the locale's thousands grouping (1.234.567 or 1,234,567), and `onChange` receives the digits.
 */
export function DigitsField(props: DigitsFieldProps) {
  const format = useFormat();
  return <FormattedField {...props} show={format.digits} store={storedDigits} isMark={notADigit} inputMode="numeric" />;
}
