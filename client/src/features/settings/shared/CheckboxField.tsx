import { useId } from 'react';

export interface CheckboxFieldProps {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  name?: string;
  hint?: string;
  disabled?: boolean;
}

/** A checkbox with its label to the right. */
export function CheckboxField({ label, checked, onChange, name, hint, disabled }: CheckboxFieldProps) {
  const id = useId();
  return (
    <div className="field field-checkbox">
      <div className="checkbox-row">
        <input
          id={id}
          name={name}
          type="checkbox"
          className="checkbox"
          checked={checked}
          disabled={disabled}
          onChange={(event) => onChange(event.target.checked)}
        />
        <label htmlFor={id} className="checkbox-label">
          {label}
        </label>
      </div>
      {hint ? <p className="field-hint">{hint}</p> : null}
    </div>
  );
}
