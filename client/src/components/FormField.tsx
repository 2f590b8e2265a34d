import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A field's label; `required` adds the required mark, hidden from screen readers (the input says it). */
export function FieldLabel({ htmlFor, label, required }: { htmlFor: string; label: string; required?: boolean }) {
  const { t } = useTranslation();
  return (
    <label htmlFor={htmlFor} className="field-label">
      {label}
      {required ? (
        <span className="field-required" aria-hidden="true">
          {t('common.requiredMark')}
        </span>
      ) : null}
    </label>
  );
}

/** The hint under a field; `id` is the one the input's aria-describedby names. */
export function FieldHint({ id, hint }: { id: string | undefined; hint: string | undefined }) {
  return hint ? (
    <p id={id} className="field-hint">
      {hint}
    </p>
  ) : null;
}

export interface TextFieldProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'prefix' | 'id'> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  /** Text or element shown inside the field before the value, e.g. '$'. */
  prefix?: ReactNode;
  /** Text or element shown after the value, e.g. '@demo'. */
  suffix?: ReactNode;
}

/** A labelled text input. `required` marks the label; validation messages are the form's. */
export function TextField({ label, value, onChange, hint, prefix, suffix, required, className, ...rest }: TextFieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className={`field ${className ?? ''}`}>
      <FieldLabel htmlFor={id} label={label} required={required} />
      <div className={`field-control ${prefix || suffix ? 'field-control-affixed' : ''}`}>
        {prefix ? <span className="field-affix">{prefix}</span> : null}
        <input
          id={id}
          className="input"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-required={required || undefined}
          aria-describedby={hintId}
          {...rest}
        />
        {suffix ? <span className="field-affix">{suffix}</span> : null}
      </div>
      <FieldHint id={hintId} hint={hint} />
    </div>
  );
}

export interface SelectFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly { value: string; label: string }[];
  /** The label of a first option of the empty value, before `options` (e.g. 'All types'). */
  emptyOption?: string;
  required?: boolean;
  disabled?: boolean;
  name?: string;
  hint?: string;
}

export function SelectField({ label, value, onChange, options, emptyOption, required, disabled, name, hint }: SelectFieldProps) {
  const id = useId();
  return (
    <div className="field">
      <FieldLabel htmlFor={id} label={label} required={required} />
      <select
        id={id}
        name={name}
        className="input"
        value={value}
        disabled={disabled}
        aria-required={required || undefined}
        onChange={(event) => onChange(event.target.value)}
      >
        {emptyOption !== undefined ? <option value="">{emptyOption}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {hint ? <p className="field-hint">{hint}</p> : null}
    </div>
  );
}

/** An inline error message under a form. */
export function FormError({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p className="notice tone-danger form-error" role="alert">
      {message}
    </p>
  );
}
