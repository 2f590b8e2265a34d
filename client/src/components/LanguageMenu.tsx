import { CheckIcon, LanguageIcon } from '@heroicons/react/24/outline';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { localeChanged, selectLocale } from '../app/preferences';
import { LOCALES, type Locale } from '../lib/format';

/** Language menu: Español (default) or English. */
export function LanguageMenu() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const locale = useAppSelector(selectLocale);
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

  function choose(next: Locale) {
    dispatch(localeChanged(next));
    setOpen(false);
  }

  return (
    <div className="menu" ref={rootRef}>
      <button
        type="button"
        className="icon-button menu-trigger"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={t('language.label')}
        title={t('language.label')}
        onClick={() => setOpen((value) => !value)}
        data-testid="language-menu"
      >
        <LanguageIcon aria-hidden="true" />
        <span className="menu-trigger-code">{locale.toUpperCase()}</span>
      </button>
      {open ? (
        <ul className="menu-list" role="menu" id={menuId}>
          {LOCALES.map((option) => (
            <li key={option} role="none">
              <button
                type="button"
                role="menuitemradio"
                aria-checked={option === locale}
                className="menu-item"
                onClick={() => choose(option)}
                lang={option}
              >
                {t(`language.${option}`)}
                {option === locale ? <CheckIcon className="menu-item-check" aria-hidden="true" /> : null}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
