import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CategoryIcon, isCategoryIconName, type CategoryIconName } from '../../../components/CategoryIcon';
import { Modal } from '../../../components/Modal';
import { SearchBox } from '../../../components/SearchBox';
import { searchIcons } from './iconSearch';

export interface IconPickerModalProps {
  open: boolean;
  /** The icon chosen so far ('' for none). */
  value: string;
  onSelect: (icon: string) => void;
  onClose: () => void;
}

/** An icon's label in the interface's language ('Bolsa de compras' for ShoppingBag). */
export function useIconLabel(): (name: string) => string {
  const { t } = useTranslation();
  return (name) => (isCategoryIconName(name) ? t(`categories.icons.${name}`) : name);
}

/** A searchable grid of the 26 category icons; choosing one closes the dialog. */
export function IconPickerModal({ open, value, onSelect, onClose }: IconPickerModalProps) {
  const { t } = useTranslation();
  const iconLabel = useIconLabel();
  const [query, setQuery] = useState('');
  const matches = searchIcons(query, (name: CategoryIconName) => iconLabel(name));

  function close() {
    setQuery('');
    onClose();
  }

  return (
    <Modal open={open} title={t('categories.iconPicker.title')} onClose={close} size="lg">
      <SearchBox
        className="icon-picker-search"
        label={t('categories.iconPicker.searchLabel')}
        placeholder={t('categories.iconPicker.searchPlaceholder')}
        value={query}
        onChange={setQuery}
      />
      {matches.length === 0 ? (
        <p className="list-empty" data-testid="icon-picker-empty">
          {t('categories.iconPicker.noResults')}
        </p>
      ) : (
        <ul className="icon-grid" aria-label={t('categories.iconPicker.title')}>
          {matches.map((name) => (
            <li key={name}>
              <button
                type="button"
                className={`icon-choice ${name === value ? 'icon-choice-selected' : ''}`}
                aria-pressed={name === value}
                title={iconLabel(name)}
                onClick={() => {
                  setQuery('');
                  onSelect(name);
                }}
              >
                <CategoryIcon name={name} />
                <span className="icon-choice-name">{iconLabel(name)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}

export interface IconFieldProps {
  label: string;
  value: string;
  onChange: (icon: string) => void;
}

/** The category form's icon: the chosen icon and a button opening the picker. */
export function IconField({ label, value, onChange }: IconFieldProps) {
  const { t } = useTranslation();
  const iconLabel = useIconLabel();
  const labelId = useId();
  const [open, setOpen] = useState(false);
  return (
    <div className="field">
      <span id={labelId} className="field-label">
        {label}
        <span className="field-required" aria-hidden="true">
          {t('common.requiredMark')}
        </span>
      </span>
      <div className="icon-field">
        <span className="icon-field-preview" data-testid="icon-field-value">
          {value ? <CategoryIcon name={value} /> : null}
          <span className="icon-field-name">{value ? iconLabel(value) : t('categories.noIcon')}</span>
        </span>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          aria-describedby={labelId}
          onClick={() => setOpen(true)}
        >
          {value ? t('categories.changeIcon') : t('categories.chooseIcon')}
        </button>
      </div>
      <IconPickerModal
        open={open}
        value={value}
        onClose={() => setOpen(false)}
        onSelect={(icon) => {
          onChange(icon);
          setOpen(false);
        }}
      />
    </div>
  );
}
