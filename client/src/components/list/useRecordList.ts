import { skipToken, type SkipToken } from '@reduxjs/toolkit/query';
import { useState } from 'react';
import type { TKey } from '../../i18n/keys';
import type { DeleteFlowProps } from './DeleteFlowModal';
import type { InactiveFilter } from './PagedList';
import { useListReactivation } from './reactivation';

export interface RecordListOptions<T> {
  /** The area's reactivate mutation, unwrapped, and its success toast. */
  reactivate: (id: number) => Promise<unknown>;
  reactivated: TKey;
  /** The area's delete mutation, unwrapped. */
  remove: (id: number) => Promise<unknown>;
  /** The record's name in the rows' button labels and the delete texts. */
  nameOf: (record: T) => string;
  /** The name in the delete texts when it is not the row's (e.g. a user's whole login). */
  deleteNameOf?: (record: T) => string;
}

export interface RecordList<T> {
  /** The 'show inactive' filter is on: the screen lists the inactive records. */
  showInactive: boolean;
  /** The record whose edit dialog is open. */
  editing: T | null;
  closeEdit: () => void;
  /** The argument of the area's usage query: the record being deleted, or skipToken. */
  usageArg: number | SkipToken;
  /** For PagedList: the rows' keys and labels, their edit and delete buttons, the inactive filter. */
  rows: {
    getKey: (record: T) => number;
    itemLabel: (record: T) => string;
    onEdit: (record: T) => void;
    onDelete: (record: T) => void;
    inactive: InactiveFilter<T>;
  };
  /** For DeleteFlowModal, besides the usage, `hasRelated` and the texts. */
  deleteFlow: Pick<DeleteFlowProps<unknown>, 'record' | 'name' | 'remove' | 'onClose'>;
}

/**
 * A list screen's records: the one being edited, the one being deleted, the 'show inactive' filter
 * and the reactivate action. Spread `rows` into PagedList and `deleteFlow` into DeleteFlowModal,
 * with the usage of the record being deleted asked for `usageArg` (skipped while there is none).
 */
export function useRecordList<T extends { id: number }>({
  reactivate,
  reactivated,
  remove,
  nameOf,
  deleteNameOf = nameOf,
}: RecordListOptions<T>): RecordList<T> {
  const [showInactive, setShowInactive] = useState(false);
  const reactivation = useListReactivation<T>(reactivate, reactivated);
  const [editing, setEditing] = useState<T | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const inactive = { shown: showInactive, onShownChange: setShowInactive, ...reactivation };
  return {
    showInactive,
    editing,
    closeEdit: () => setEditing(null),
    usageArg: deleting?.id ?? skipToken,
    rows: { getKey: (record: T) => record.id, itemLabel: nameOf, onEdit: setEditing, onDelete: setDeleting, inactive },
    deleteFlow: { record: deleting, name: deleting ? deleteNameOf(deleting) : '', remove, onClose: () => setDeleting(null) },
  };
}
