import { useId } from 'react';
import { FieldLabel } from '../../../components/FormField';

export interface TextAreaFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  name?: string;
  rows?: number;
  maxLength?: number;
}

/** A labelled multi-line text input, styled like the shared TextField. */
export function TextAreaField({ label, value, onChange, name, rows = 3, maxLength }: TextAreaFieldProps) {
  const id = useId();
  return (
    <div className="field">
      <FieldLabel htmlFor={id} label={label} />
      <textarea
        id={id}
        name={name}
        className="input textarea"
        rows={rows}
        maxLength={maxLength}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
