import { Fragment, type ReactNode } from 'react';
import { DeleteFlowModal, type DeleteFlowProps } from './DeleteFlowModal';
import type { RecordList } from './useRecordList';

export interface RecordDialogsProps<T, U> extends Pick<DeleteFlowProps<U>, 'usage' | 'hasRelated' | 'texts'> {
  records: RecordList<T>;
  /** The edit dialog of the record being edited; `onClose` closes it. */
  renderEdit: (record: T, onClose: () => void) => ReactNode;
}

/**
 * A list screen's dialogs: the edit dialog, fresh for each record edited, and the delete flow with
 * the area's usage look-up, `hasRelated` and texts.
 */
export function RecordDialogs<T extends { id: number }, U>({ records, renderEdit, ...deleteFlow }: RecordDialogsProps<T, U>) {
  return (
    <>
      {records.editing ? <Fragment key={records.editing.id}>{renderEdit(records.editing, records.closeEdit)}</Fragment> : null}
      <DeleteFlowModal {...records.deleteFlow} {...deleteFlow} />
    </>
  );
}
