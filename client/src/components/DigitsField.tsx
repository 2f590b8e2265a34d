import { useId, useLayoutEffect, useRef, type InputHTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../app/useFormat';
import { digitsOnly } from '../lib/format';

export interface DigitsFieldProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'prefix' | 'id' | 'type' | 'inputMode'> {
  label: string;
  /** The digits only, as stored. */
  value: string;
  onChange: (digits: string) => void;
  hint?: string;
  prefix?: ReactNode;
  /** A button or other element beside the input (e.g. the lookup's search button). */
  action?: ReactNode;
}

/** Where the caret goes to stay after the same number of digits in the formatted text. */
export function caretAfterDigits(formatted: string, digitsBefore: number): number {
  if (digitsBefore <= 0) return 0;
  let seen = 0;
  for (let index = 0; index < formatted.length; index += 1) {
    if (/\d/.test(formatted[index]!)) seen += 1;
    if (seen === digitsBefore) return index + 1;
  }
  return formatted.length;
}

/** The digits of what was typed, without leading zeros (as the grouped display shows them). */
export function storedDigits(typed: string): string {
  return digitsOnly(typed).replace(/^0+(?=\d)/, '');
}

/**
 * A text input that accepts digits only: whatever is typed or pasted keeps its digits, shown with
 * the locale's thousands grouping (1.234.567 or 1,234,567), and `onChange` receives the digits.
 */
export function DigitsField({ label, value, onChange, hint, prefix, action, required, className, ...rest }: DigitsFieldProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const pendingCaret = useRef<number | null>(null);
  const shown = format.digits(value);
  const hintId = hint ? `${id}-hint` : undefined;

  useLayoutEffect(() => {
    const input = inputRef.current;
    if (pendingCaret.current == null || !input || document.activeElement !== input) return;
    const position = caretAfterDigits(shown, pendingCaret.current);
    pendingCaret.current = null;
    input.setSelectionRange(position, position);
  });

  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={id} className="field-label">
        {label}
        {required ? (
          <span className="field-required" aria-hidden="true">
            {t('common.requiredMark')}
          </span>
        ) : null}
      </label>
      <div className={`field-control ${prefix ? 'field-control-affixed' : ''} ${action ? 'field-control-action' : ''}`}>
        {prefix ? <span className="field-affix">{prefix}</span> : null}
        <input
          ref={inputRef}
          id={id}
          className="input"
          type="text"
          inputMode="numeric"
          autoComplete="off"
          value={shown}
          aria-required={required || undefined}
          aria-describedby={hintId}
          onChange={(event) => {
            const raw = event.target.value;
            const caret = event.target.selectionStart ?? raw.length;
            pendingCaret.current = storedDigits(raw.slice(0, caret)).length;
            onChange(storedDigits(raw));
          }}
          {...rest}
        />
        {action}
      </div>
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
