import { MagnifyingGlassIcon } from '@heroicons/react/24/outline';
import { useId } from 'react';

export interface SearchBoxProps {
  /** Read by screen readers only. */
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  /** Added to `search-box`, e.g. for a place's own spacing. */
  className?: string;
}

/** A search input with its magnifying glass and a hidden label. */
export function SearchBox({ label, placeholder, value, onChange, disabled, className }: SearchBoxProps) {
  const id = useId();
  return (
    <div className={className ? `search-box ${className}` : 'search-box'}>
      <MagnifyingGlassIcon className="search-icon" aria-hidden="true" />
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input
        id={id}
        type="search"
        className="input search-input"
        placeholder={placeholder}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        disabled={disabled}
      />
    </div>
  );
}
