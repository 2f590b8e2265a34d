export { DeleteConfirmModal, type DeleteConfirmModalProps } from './DeleteConfirmModal';
export { EditModal, type EditModalProps } from './EditModal';
export { AddFormPanel, ListScreen, type AddFormPanelProps } from './ListScreen';
export { PagedList, type PagedListProps } from './PagedList';
export { useListState, type ListState } from './useListState';
