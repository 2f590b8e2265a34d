import { ArrowUturnLeftIcon } from '@heroicons/react/24/outline';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiErrorStatus, type ApiError } from '../../app/api';
import type { TKey } from '../../i18n/keys';
import { useFeedback } from '../../app/feedback';

/**
 * The id of the inactive record whose document, name or code an add collided with: the server
 * answers 409 with the code `<entity>.inactiveExists` and the record's `id`.
 */
export function inactiveConflictId(error: unknown): number | null {
  if (apiErrorStatus(error) !== 409) return null;
  const { code, params } = error as ApiError;
  const id = params?.id;
  return code?.endsWith('.inactiveExists') && typeof id === 'number' ? id : null;
}

export interface Reactivation {
  /** The inactive record on offer, if the last add collided with one. */
  offer: number | null;
  /** Takes a failed add: true (and the offer is made) when an inactive record holds its key. */
  caught: (failure: unknown) => boolean;
  clear: () => void;
  accept: () => Promise<void>;
  busy: boolean;
}

/**
 * Offering to reactivate the inactive record an add collided with: `reactivate` is the area's
 * mutation, `onDone` runs after it succeeded (e.g. to empty the form).
 */
export function useReactivation(reactivate: (id: number) => Promise<unknown>, successKey: TKey, onDone: () => void): Reactivation {
  const feedback = useFeedback();
  const [offer, setOffer] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  return {
    offer,
    busy,
    caught: (failure) => {
      const id = inactiveConflictId(failure);
      setOffer(id);
      return id !== null;
    },
    clear: () => setOffer(null),
    accept: async () => {
      if (offer === null) return;
      setBusy(true);
      try {
        await reactivate(offer);
        setOffer(null);
        feedback.success(successKey);
        onDone();
      } catch (failure) {
        feedback.failure(failure);
      } finally {
        setBusy(false);
      }
    },
  };
}

/** "An inactive customer has this document. Reactivate it?" with its button. */
export function ReactivateOffer({ reactivation, text }: { reactivation: Reactivation; text: string }) {
  const { t } = useTranslation();
  if (reactivation.offer === null) return null;
  return (
    <div className="reactivate-offer" role="alert">
      <p>{text}</p>
      <button type="button" className="btn btn-secondary btn-sm" onClick={() => void reactivation.accept()} disabled={reactivation.busy}>
        <ArrowUturnLeftIcon aria-hidden="true" />
        {reactivation.busy ? t('list.reactivating') : t('list.reactivate')}
      </button>
    </div>
  );
}

/** The list's reactivate action: the mutation, the success toast and the row that waits. */
export function useListReactivation<T extends { id: number }>(reactivate: (id: number) => Promise<unknown>, successKey: TKey) {
  const feedback = useFeedback();
  const [reactivating, setReactivating] = useState<T | null>(null);
  return {
    reactivating,
    onReactivate: (item: T) => {
      setReactivating(item);
      reactivate(item.id)
        .then(() => feedback.success(successKey))
        .catch((failure: unknown) => feedback.failure(failure))
        .finally(() => setReactivating(null));
    },
  };
}
