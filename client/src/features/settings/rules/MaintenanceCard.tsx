import { ClockIcon } from '@heroicons/react/24/outline';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiErrorMessage } from '../../../app/api';
import { Modal } from '../../../components/Modal';
import { EXPIRATION_MESSAGE_MS } from '../../../lib/constants';
import { useRunPointExpirationMutation } from '../settingsApi';
import { StatusMessage } from '../shared/StatusMessage';
import { useTimedMessage } from '../shared/useTimedMessage';

/**
 * Runs point expiration now (irreversible), after a confirmation. While it runs the button reads 'Ejecutando...' and is
 * disabled; the result shows for 5 s (docs/screens.md, "Messages").
 */
export function MaintenanceCard() {
  const { t } = useTranslation();
  const titleId = useId();
  const [runExpiration, { isLoading }] = useRunPointExpirationMutation();
  const [result, showResult] = useTimedMessage(EXPIRATION_MESSAGE_MS);
  const [confirming, setConfirming] = useState(false);

  async function run() {
    setConfirming(false);
    try {
      const answer = await runExpiration().unwrap();
      showResult({ kind: 'success', text: t('settings.maintenance.runExpirationSuccess'), detail: answer?.message || undefined });
    } catch (failure) {
      showResult({ kind: 'error', text: t('settings.maintenance.runExpirationError'), detail: apiErrorMessage(failure) });
    }
  }

  return (
    <section className="card settings-card" aria-labelledby={titleId}>
      <h2 id={titleId} className="card-title">
        {t('settings.maintenance.title')}
      </h2>
      <p className="settings-explanation">{t('settings.maintenance.description')}</p>
      <div className="settings-actions">
        <StatusMessage message={result} testId="expiration-result" />
        <button type="button" className="btn btn-danger" onClick={() => setConfirming(true)} disabled={isLoading}>
          <ClockIcon aria-hidden="true" />
          {isLoading ? t('settings.maintenance.running') : t('settings.maintenance.runExpiration')}
        </button>
      </div>
      <Modal
        open={confirming}
        title={t('settings.maintenance.confirmTitle')}
        onClose={() => setConfirming(false)}
        size="sm"
        tone="danger"
        footer={
          <div className="modal-actions">
            <button type="button" className="btn btn-secondary" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </button>
            <button type="button" className="btn btn-danger" onClick={() => void run()}>
              {t('settings.maintenance.confirmRun')}
            </button>
          </div>
        }
      >
        <p>{t('settings.maintenance.confirmText')}</p>
      </Modal>
    </section>
  );
}
