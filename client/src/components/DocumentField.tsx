import { useId, useLayoutEffect, useRef, type InputHTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../app/useFormat';
import { formatDocument, groupSeparator, isAllDigits, normalizeDocument } from '../lib/document';

export interface DocumentFieldProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'prefix' | 'id' | 'type'> {
  label: string;
  /** The document as stored (normalised). */
  value: string;
  onChange: (document: string) => void;
  hint?: string;
  /** A button or other element beside the input (e.g. the lookup's search button). */
  action?: ReactNode;
}

/** Where the caret goes to stay after `kept` characters of the document in the shown text. */
export function caretAfter(shown: string, kept: number, separator: string): number {
  if (kept <= 0) return 0;
  let seen = 0;
  for (let index = 0; index < shown.length; index += 1) {
    if (shown[index] !== separator) seen += 1;
    if (seen === kept) return index + 1;
  }
  return shown.length;
}

/**
 * An ID document input: what is typed or pasted is normalised as the server does it (dots and
 * spaces dropped, letters upper-cased), and an all-digit document is shown grouped by thousands
 * (1.098.765.432); `onChange` receives the normalised document.
 */
export function DocumentField({ label, value, onChange, hint, action, required, className, ...rest }: DocumentFieldProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const pendingCaret = useRef<number | null>(null);
  const separator = groupSeparator(format.locale);
  const shown = formatDocument(value, format.locale);
  const hintId = hint ? `${id}-hint` : undefined;

  useLayoutEffect(() => {
    const input = inputRef.current;
    if (pendingCaret.current == null || !input || document.activeElement !== input) return;
    const position = caretAfter(shown, pendingCaret.current, isAllDigits(value) ? separator : '');
    pendingCaret.current = null;
    input.setSelectionRange(position, position);
  });

  // The grouping of an all-digit document (a comma in English) is not part of it.
  const stored = (typed: string) => {
    const normalized = normalizeDocument(typed);
    const ungrouped = normalized.split(separator).join('');
    return isAllDigits(ungrouped) ? ungrouped : normalized;
  };

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
      <div className={`field-control ${action ? 'field-control-action' : ''}`}>
        <input
          ref={inputRef}
          id={id}
          className="input"
          type="text"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          value={shown}
          aria-required={required || undefined}
          aria-describedby={hintId}
          onChange={(event) => {
            const raw = event.target.value;
            const caret = event.target.selectionStart ?? raw.length;
            pendingCaret.current = stored(raw.slice(0, caret)).length;
            onChange(stored(raw));
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
