import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TKey } from '../../i18n/keys';
import type { AddFormPanelProps } from './ListScreen';
import { ReactivateOffer, useReactivation } from './reactivation';
import { useSaveForm, type Checked, type SaveForm } from './useSaveForm';

export interface AddFormOptions<V, B, R> {
  /** The values of an empty form; the form goes back to them after an add or a reactivation. */
  empty: V;
  /** Checks the values the form holds now. */
  check: (values: V) => Checked<B>;
  /** The area's create mutation, unwrapped. */
  create: (body: B) => Promise<R>;
  /** The area's reactivate mutation, unwrapped: offered when the add collides with an inactive record. */
  reactivate: (id: number) => Promise<unknown>;
  /** The success toast's parameters when it names the record. */
  successParams?: (result: R, body: B) => Record<string, string | number>;
  /** The area's texts: the toasts, the error for a duplicate and the offer to reactivate. */
  texts: { added: TKey; reactivated: TKey; conflict: TKey; inactiveOffer: TKey };
}

/** What an add form's AddFormPanel takes besides its title, submit label and fields. */
export type AddFormPanelState = SaveForm & Pick<AddFormPanelProps, 'submittingLabel' | 'notice'>;

/**
 * The add form of a list screen: its values, the save with its toast, and the offer to reactivate
 * the inactive record an add collided with. Spread `panel` into AddFormPanel.
 */
export function useAddForm<V, B, R>({ empty, check, create, reactivate, successParams, texts }: AddFormOptions<V, B, R>) {
  const { t } = useTranslation();
  const [values, setValues] = useState<V>(empty);
  const reset = () => setValues(empty);
  const reactivation = useReactivation(reactivate, texts.reactivated, reset);
  const form = useSaveForm({
    check: () => check(values),
    save: create,
    success: texts.added,
    successParams,
    conflictKey: texts.conflict,
    reactivation,
    onSaved: reset,
  });
  const panel: AddFormPanelState = {
    ...form,
    submittingLabel: t('common.adding'),
    notice: <ReactivateOffer reactivation={reactivation} text={t(texts.inactiveOffer)} />,
  };
  return { values, setValues, panel };
}

export interface EditFormOptions<V, B, R> {
  /** The record's values, or a function that makes them. */
  initial: V | (() => V);
  check: (values: V) => Checked<B>;
  /** The area's update mutation for this record, unwrapped. */
  save: (body: B) => Promise<R>;
  success: TKey;
  conflictKey?: TKey;
  /** Closes the dialog after the toast. */
  onSaved: () => void;
}

/** The edit dialog of a list screen: its values and the save with its toast. Spread `form` into EditModal. */
export function useEditForm<V, B, R>({ initial, check, save, success, conflictKey, onSaved }: EditFormOptions<V, B, R>) {
  const [values, setValues] = useState<V>(initial);
  const form = useSaveForm({ check: () => check(values), save, success, conflictKey, onSaved });
  return { values, setValues, form };
}
