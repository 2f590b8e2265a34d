import { PlusIcon } from '@heroicons/react/24/outline';
import type { FormEvent, ReactNode } from 'react';
import { FormError } from '../FormField';
import { PageHeader } from '../PageHeader';
import { useStaleError } from './useStaleError';

export interface ListScreenProps {
  title: string;
  subtitle: string;
  form: ReactNode;
  list: ReactNode;
  /** The screen's dialogs (RecordDialogs). */
  children?: ReactNode;
}

/** A list screen: its page header, the add form on the left third, the list on the right two thirds. */
export function ListScreen({ title, subtitle, form, list, children }: ListScreenProps) {
  return (
    <section className="page">
      <PageHeader title={title} subtitle={subtitle} />
      <div className="list-screen">
        <div className="list-screen-form">{form}</div>
        <div className="list-screen-list">{list}</div>
      </div>
      {children}
    </section>
  );
}

export interface AddFormPanelProps {
  title: string;
  submitLabel: string;
  submittingLabel?: string;
  submitting?: boolean;
  error?: string | null;
  /** Shown under the error, e.g. the offer to reactivate an inactive record. */
  notice?: ReactNode;
  onSubmit: () => void;
  children: ReactNode;
}

/** The add form card: fields, an inline error and the submit button. */
export function AddFormPanel({ title, submitLabel, submittingLabel, submitting = false, error, notice, onSubmit, children }: AddFormPanelProps) {
  const stale = useStaleError(error);
  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    stale.onSubmit();
    if (!submitting) onSubmit();
  }
  return (
    <section className="card add-form" aria-label={title}>
      <h2 className="card-title">{title}</h2>
      <form onSubmit={handleSubmit} onChange={stale.onEdit} noValidate>
        <div className="form-fields">{children}</div>
        <FormError message={stale.shown} />
        {notice}
        <button type="submit" className="btn btn-primary btn-block" disabled={submitting}>
          <PlusIcon aria-hidden="true" />
          {submitting && submittingLabel ? submittingLabel : submitLabel}
        </button>
      </form>
    </section>
  );
}
