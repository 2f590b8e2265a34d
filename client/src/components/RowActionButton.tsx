import type { ComponentType } from 'react';

export interface RowActionButtonProps {
  Icon: ComponentType<{ 'aria-hidden'?: boolean | 'true' }>;
  /** The button's text, hidden on phones (then the icon and the tooltip remain). */
  text: string;
  /** The accessible name, when the text alone does not say which row it acts on. */
  label?: string;
  onClick: () => void;
  disabled?: boolean;
  /** Added to the button's classes, e.g. for its own hover colour. */
  className?: string;
}

/** A list row's action with words, beside the icon-only ones: a small secondary button. */
export function RowActionButton({ Icon, text, label, onClick, disabled, className }: RowActionButtonProps) {
  return (
    <button
      type="button"
      className={className ? `btn btn-secondary btn-sm ${className}` : 'btn btn-secondary btn-sm'}
      onClick={onClick}
      disabled={disabled}
      aria-label={label}
      title={text}
    >
      <Icon aria-hidden="true" />
      <span className="hide-sm">{text}</span>
    </button>
  );
}
