import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../app/feedback';
import type { TKey } from '../../i18n/keys';
import { DeleteConfirmModal } from './DeleteConfirmModal';
import { useUsageCheck, type UsageResult } from './useUsageCheck';

export interface DeleteFlowProps<U> {
  /** The record to delete; null keeps the modal closed. */
  record: { id: number } | null;
  /** The record's name in the texts. */
  name: string;
  /** The record's usage look-up (GET /api/<kind>/{id}/usage, asked with USAGE_QUERY_OPTIONS). */
  usage: UsageResult<U>;
  /** Related records exist: the delete will only make the record inactive. */
  hasRelated: (usage: U) => boolean;
  /** The area's delete mutation, unwrapped. */
  remove: (id: number) => Promise<unknown>;
  /** The area's texts: the soft and hard confirmations (with `name`) and the success toast. */
  texts: { soft: TKey; hard: TKey; deleted: TKey };
  onClose: () => void;
}

/**
 * Deleting a record of a list screen: the usage check, the confirmation saying whether the record
 * will be removed or only made inactive, the delete, then a toast. The server decides in the end
 * (docs/decisions.md, "Deleting").
 */
export function DeleteFlowModal<U>({ record, name, usage, hasRelated, remove, texts, onClose }: DeleteFlowProps<U>) {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const check = useUsageCheck(usage, hasRelated);
  const [deleting, setDeleting] = useState(false);

  async function confirm() {
    if (!record) return;
    setDeleting(true);
    try {
      await remove(record.id);
      feedback.success(texts.deleted);
    } catch (failure) {
      feedback.failure(failure);
    } finally {
      setDeleting(false);
      onClose();
    }
  }

  return (
    <DeleteConfirmModal
      open={record !== null}
      name={name}
      soft={check.soft}
      checking={check.checking}
      message={check.message}
      softText={t(texts.soft, { name })}
      hardText={t(texts.hard, { name })}
      deleting={deleting}
      onCancel={onClose}
      onConfirm={() => void confirm()}
    />
  );
}
