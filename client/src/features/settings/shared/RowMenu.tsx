import { EllipsisVerticalIcon, PencilSquareIcon, TrashIcon } from '@heroicons/react/24/outline';
import { useTranslation } from 'react-i18next';
import { Menu, type MenuEntry } from '../../../components/Menu';

export interface RowMenuProps {
  /** The record's name, for the accessible labels. */
  name: string;
  onEdit: () => void;
  onDelete: () => void;
  /** Actions shown before edit and delete (e.g. reactivate). */
  extra?: readonly MenuEntry[];
  /** Actions shown after edit and delete (e.g. a customer's personal data). */
  after?: readonly MenuEntry[];
}

/** A row's actions behind a '⋮' button, in the floating menu every list shares. */
export function RowMenu({ name, onEdit, onDelete, extra = [], after = [] }: RowMenuProps) {
  const { t } = useTranslation();
  return (
    <Menu
      label={t('settings.rowMenu', { name })}
      title={t('common.actions')}
      trigger={<EllipsisVerticalIcon aria-hidden="true" />}
      listClassName="row-menu-list"
      items={[
        ...extra,
        { key: 'edit', label: t('common.edit'), icon: <PencilSquareIcon aria-hidden="true" />, onSelect: onEdit },
        { key: 'delete', label: t('common.delete'), icon: <TrashIcon aria-hidden="true" />, onSelect: onDelete, danger: true },
        ...after,
      ]}
    />
  );
}
