import { EllipsisVerticalIcon, PencilSquareIcon, TrashIcon } from '@heroicons/react/24/outline';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface RowMenuProps {
  /** The record's name, for the accessible labels. */
  name: string;
  onEdit: () => void;
  onDelete: () => void;
}

/** A row's edit/delete menu behind a '⋮' button (customers list). */
export function RowMenu({ name, onEdit, onDelete }: RowMenuProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return undefined;
    function onPointerDown(event: MouseEvent) {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    }
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === 'Escape') setOpen(false);
    }
    document.addEventListener('mousedown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('mousedown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  function choose(action: () => void) {
    setOpen(false);
    action();
  }

  return (
    <div className="menu row-menu" ref={rootRef}>
      <button
        type="button"
        className="icon-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={t('settings.rowMenu', { name })}
        title={t('common.actions')}
        onClick={() => setOpen((value) => !value)}
      >
        <EllipsisVerticalIcon aria-hidden="true" />
      </button>
      {open ? (
        <div id={menuId} className="menu-list row-menu-list" role="menu">
          <button type="button" role="menuitem" className="menu-item" onClick={() => choose(onEdit)}>
            <PencilSquareIcon aria-hidden="true" />
            {t('common.edit')}
          </button>
          <button type="button" role="menuitem" className="menu-item menu-item-danger" onClick={() => choose(onDelete)}>
            <TrashIcon aria-hidden="true" />
            {t('common.delete')}
          </button>
        </div>
      ) : null}
    </div>
  );
}
