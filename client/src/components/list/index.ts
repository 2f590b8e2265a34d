export { DeleteConfirmModal, type DeleteConfirmModalProps } from './DeleteConfirmModal';
export { DeleteFlowModal, type DeleteFlowProps } from './DeleteFlowModal';
export { EditModal, type EditModalProps } from './EditModal';
export { AddFormPanel, ListScreen, type AddFormPanelProps } from './ListScreen';
export { PagedList, type PagedListProps } from './PagedList';
export { ReactivateOffer, useListReactivation, useReactivation, type Reactivation } from './reactivation';
export { useListState, type ListState } from './useListState';
export { useSaveForm, type Checked, type SaveForm, type SaveFormOptions } from './useSaveForm';
export { USAGE_QUERY_OPTIONS, useUsageCheck, type UsageCheck, type UsageResult } from './useUsageCheck';
