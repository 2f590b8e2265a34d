import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../app/feedback';
import type { TKey } from '../../i18n/keys';
import type { Reactivation } from './reactivation';

/** A form's values checked: the body to send, or the key of the error to show. */
export type Checked<B> = { ok: true; body: B } | { ok: false; error: TKey };

export interface SaveFormOptions<B, R> {
  /** Checks the values the form holds now. */
  check: () => Checked<B>;
  /** The create or update mutation, unwrapped. */
  save: (body: B) => Promise<R>;
  /** The success toast, and its parameters when it names the record. */
  success: TKey;
  successParams?: (result: R, body: B) => Record<string, string | number>;
  /** The error for a 409 (a duplicate); without it the server's message is shown. */
  conflictKey?: TKey;
  /** An add: a 409 naming an inactive record offers to reactivate it instead of an error. */
  reactivation?: Pick<Reactivation, 'clear' | 'caught'>;
  /** After the toast: empty the add form, or close the edit dialog. */
  onSaved: () => void;
}

/** What AddFormPanel and EditModal take: the error under the fields, the wait, the submit. */
export interface SaveForm {
  error: string | null;
  submitting: boolean;
  onSubmit: () => void;
}

/**
 * The add or edit form of a list screen: check the values, create or update, then a toast; a
 * refused save shows its error under the fields.
 */
export function useSaveForm<B, R>({
  check,
  save,
  success,
  successParams,
  conflictKey,
  reactivation,
  onSaved,
}: SaveFormOptions<B, R>): SaveForm {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function submit() {
    reactivation?.clear();
    const checked = check();
    if (!checked.ok) {
      setError(t(checked.error));
      return;
    }
    setError(null);
    setSubmitting(true);
    try {
      const result = await save(checked.body);
      feedback.success(success, successParams?.(result, checked.body));
      onSaved();
    } catch (failure) {
      if (!reactivation?.caught(failure)) setError(feedback.errorText(failure, conflictKey));
    } finally {
      setSubmitting(false);
    }
  }

  return { error, submitting, onSubmit: () => void submit() };
}
