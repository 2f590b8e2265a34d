import { useId, useLayoutEffect, useRef } from 'react';
import { caretAfterDigits } from '../../../components/DigitsField';
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
  const id = useId();
  const shown = value > 0 ? formatWholeNumber(value) : '';
  const inputRef = useRef<HTMLInputElement>(null);
  const pendingCaret = useRef<number | null>(null);

  useLayoutEffect(() => {
    const input = inputRef.current;
    if (pendingCaret.current == null || !input || document.activeElement !== input) return;
    const position = caretAfterDigits(shown, pendingCaret.current);
    pendingCaret.current = null;
    input.setSelectionRange(position, position);
  });

  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <div className={`field-control ${prefix ? 'field-control-affixed' : ''}`}>
        {prefix ? <span className="field-affix">{prefix}</span> : null}
        <input
          ref={inputRef}
          id={id}
          name={name}
          className="input"
          type="text"
          inputMode="numeric"
          autoComplete="off"
          value={shown}
          placeholder={formatWholeNumber(0)}
          onChange={(event) => {
            const typed = event.target.value;
            const caret = event.target.selectionStart ?? typed.length;
            pendingCaret.current = wholeNumberDigits(typed.slice(0, caret)).length;
            onChange(parseWholeNumber(typed));
          }}
        />
      </div>
    </div>
  );
}
