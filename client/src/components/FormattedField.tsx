import { useId, useLayoutEffect, useRef, type InputHTMLAttributes, type ReactNode } from 'react';
import { FieldHint, FieldLabel } from './FormField';

export interface FormattedFieldProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'prefix' | 'id' | 'type'> {
  label: string;
  /** The value as stored. */
  value: string;
  onChange: (stored: string) => void;
  /** Stored → shown, e.g. grouped by thousands. */
  show: (stored: string) => string;
  /** Typed or pasted → stored. */
  store: (typed: string) => string;
  /** The characters of the shown text that are not part of the stored value (the grouping marks). */
  isMark: (char: string) => boolean;
  hint?: string;
  prefix?: ReactNode;
  /** A button or other element beside the input (e.g. the lookup's search button). */
  action?: ReactNode;
}

/** Where the caret goes to stay after `kept` stored characters in the shown text. */
export function caretAfterKept(shown: string, kept: number, isMark: (char: string) => boolean): number {
  if (kept <= 0) return 0;
  let seen = 0;
  for (let index = 0; index < shown.length; index += 1) {
    if (!isMark(shown[index]!)) seen += 1;
    if (seen === kept) return index + 1;
  }
  return shown.length;
}

/**
 * A text input that shows its stored value formatted: what is typed or pasted goes through
 * `store`, `onChange` receives the result, and the caret stays after the same stored character
 * while the marks around it change.
 */
export function FormattedField({
  label,
  value,
  onChange,
  show,
  store,
  isMark,
  hint,
  prefix,
  action,
  required,
  className,
  ...rest
}: FormattedFieldProps) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const pendingCaret = useRef<number | null>(null);
  const shown = show(value);
  const hintId = hint ? `${id}-hint` : undefined;

  useLayoutEffect(() => {
    const input = inputRef.current;
    if (pendingCaret.current == null || !input || document.activeElement !== input) return;
    const position = caretAfterKept(shown, pendingCaret.current, isMark);
    pendingCaret.current = null;
    input.setSelectionRange(position, position);
  });

  return (
    <div className={`field ${className ?? ''}`}>
      <FieldLabel htmlFor={id} label={label} required={required} />
      <div className={`field-control ${prefix ? 'field-control-affixed' : ''} ${action ? 'field-control-action' : ''}`}>
        {prefix ? <span className="field-affix">{prefix}</span> : null}
        <input
          ref={inputRef}
          id={id}
          className="input"
          type="text"
          autoComplete="off"
          value={shown}
          aria-required={required || undefined}
          aria-describedby={hintId}
          onChange={(event) => {
            const raw = event.target.value;
            const caret = event.target.selectionStart ?? raw.length;
            pendingCaret.current = store(raw.slice(0, caret)).length;
            onChange(store(raw));
          }}
          {...rest}
        />
        {action}
      </div>
      <FieldHint id={hintId} hint={hint} />
    </div>
  );
}
