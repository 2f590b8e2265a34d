import { useTranslation } from 'react-i18next';
import { StatusMessage } from './StatusMessage';
import type { TimedMessage } from './useTimedMessage';

/** The foot of a settings form: the last save's result, then the save button, which waits while saving. */
export function SaveActions({ saved, saving, label }: { saved: TimedMessage | null; saving: boolean; label: string }) {
  const { t } = useTranslation();
  return (
    <div className="settings-actions">
      <StatusMessage message={saved} testId="settings-saved" />
      <button type="submit" className="btn btn-primary" disabled={saving}>
        {saving ? t('common.saving') : label}
      </button>
    </div>
  );
}
