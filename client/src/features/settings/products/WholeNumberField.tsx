import { notADigit } from '../../../components/DigitsField';
import { FormattedField } from '../../../components/FormattedField';
import { formatWholeNumber, parseWholeNumber, wholeNumberDigits } from './wholeNumber';

export interface WholeNumberFieldProps {
  label: string;
  name: string;
  value: number;
  onChange: (value: number) => void;
  /** Shown inside the field before the number, e.g. '$'. */
  prefix?: string;
}

/**
 * A digits-only number input with Colombian thousands grouping (price and points value of a
 * product). The caret stays after the same digit while the grouping changes around it.
 *
 * 0 shows as an empty field with a placeholder '0': a '0' in the text would stay a digit, and
 * typing 45000 with the caret before it gave 450000.
 */
export function WholeNumberField({ label, name, value, onChange, prefix }: WholeNumberFieldProps) {
  return (
    <FormattedField
      label={label}
      name={name}
      value={value > 0 ? String(Math.floor(value)) : ''}
      onChange={(digits) => onChange(parseWholeNumber(digits))}
      show={(digits) => (digits === '' ? '' : formatWholeNumber(Number(digits)))}
      store={wholeNumberDigits}
      isMark={notADigit}
      prefix={prefix}
      inputMode="numeric"
      placeholder={formatWholeNumber(0)}
    />
  );
}
