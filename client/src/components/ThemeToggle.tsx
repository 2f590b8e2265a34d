import { MoonIcon, SunIcon } from '@heroicons/react/24/outline';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { selectTheme, themeToggled } from '../app/preferences';

export function ThemeToggle() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const theme = useAppSelector(selectTheme);
  const label = theme === 'light' ? t('theme.switchToDark') : t('theme.switchToLight');
  return (
    <button
      type="button"
      className="icon-button"
      onClick={() => dispatch(themeToggled())}
      aria-label={label}
      title={label}
      data-testid="theme-toggle"
    >
      {theme === 'light' ? <MoonIcon aria-hidden="true" /> : <SunIcon aria-hidden="true" />}
    </button>
  );
}
