import { ArrowUpTrayIcon } from '@heroicons/react/24/outline';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiErrorMessage } from '../../../app/api';
import { useAppSelector } from '../../../app/hooks';
import { selectUser } from '../../../app/session';
import { useFormat } from '../../../app/useFormat';
import { FieldLabel, FormError, SelectField } from '../../../components/FormField';
import { Modal } from '../../../components/Modal';
import type { ImportAnswer } from '../../../lib/types';
import { useImportCustomersMutation, type ConsentChannel, type OnExisting } from './importApi';

/** The dry run's figures and its errors, as a table. */
function ImportSummary({ answer }: { answer: ImportAnswer }) {
  const { t } = useTranslation();
  const format = useFormat();
  const key = answer.dryRun ? 'customerImport.checked' : 'customerImport.done';
  return (
    <div className="customer-import-summary" data-testid="import-summary">
      <p role="status">
        {t(key, {
          rows: format.number(answer.rows),
          valid: format.number(answer.valid),
          created: format.number(answer.created),
          updated: format.number(answer.updated),
          skipped: format.number(answer.skipped),
          points: format.number(answer.openingPoints),
        })}
      </p>
      {answer.errorCount > 0 ? (
        <>
          <p>
            {answer.errorCount > answer.errors.length
              ? t('customerImport.errorsFirst', { count: answer.errorCount, shown: answer.errors.length })
              : t('customerImport.errors', { count: answer.errorCount })}
          </p>
          <div className="table-scroll">
            <table className="permissions-table" data-testid="import-errors">
              <thead>
                <tr>
                  <th scope="col">{t('customerImport.line')}</th>
                  <th scope="col">{t('customerImport.column')}</th>
                  <th scope="col">{t('customerImport.message')}</th>
                </tr>
              </thead>
              <tbody>
                {answer.errors.map((error, i) => (
                  <tr key={`${error.line}-${i}`}>
                    <td>{error.line}</td>
                    <td>{error.column}</td>
                    <td>{error.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </div>
  );
}

/** The import dialog: a file, the options, a dry run and then the import, with the upload's progress. */
export function ImportCustomersDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [onExisting, setOnExisting] = useState<OnExisting>('skip');
  const [consentChannel, setConsentChannel] = useState<ConsentChannel>('');
  const [progress, setProgress] = useState<number | null>(null);
  const [answer, setAnswer] = useState<ImportAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [importCustomers, { isLoading }] = useImportCustomersMutation();

  async function run(dryRun: boolean) {
    if (!file) return;
    setError(null);
    setProgress(0);
    try {
      const result = await importCustomers({ file, dryRun, onExisting, consentChannel, onProgress: setProgress }).unwrap();
      setAnswer(result);
    } catch (err) {
      setAnswer(null);
      setError(apiErrorMessage(err) ?? t('customerImport.failed'));
    } finally {
      setProgress(null);
    }
  }

  function changed() {
    setAnswer(null);
    setError(null);
  }

  const checked = answer?.dryRun === true && answer.valid > 0;
  const footer = (
    <>
      <button type="button" className="btn btn-secondary" onClick={onClose} disabled={isLoading}>
        {t('common.close')}
      </button>
      <button type="button" className="btn btn-secondary" onClick={() => void run(true)} disabled={!file || isLoading}>
        {t('customerImport.check')}
      </button>
      <button type="button" className="btn btn-primary" onClick={() => void run(false)} disabled={!checked || isLoading}>
        {t('customerImport.import', { count: answer?.valid ?? 0 })}
      </button>
    </>
  );

  return (
    <Modal open title={t('customerImport.title')} onClose={onClose} footer={footer} size="lg" busy={isLoading}>
      <p>{t('customerImport.intro')}</p>
      <div className="field">
        <FieldLabel htmlFor={fileId} label={t('customerImport.file')} required />
        <input
          id={fileId}
          type="file"
          className="input"
          accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          onChange={(event) => {
            setFile(event.target.files?.[0] ?? null);
            changed();
          }}
        />
      </div>
      <SelectField
        label={t('customerImport.onExisting')}
        value={onExisting}
        onChange={(value) => {
          setOnExisting(value as OnExisting);
          changed();
        }}
        options={[
          { value: 'skip', label: t('customerImport.skip') },
          { value: 'update', label: t('customerImport.update') },
        ]}
      />
      <SelectField
        label={t('customerImport.consentChannel')}
        value={consentChannel}
        onChange={(value) => {
          setConsentChannel(value as ConsentChannel);
          changed();
        }}
        emptyOption={t('customerImport.consentFromFile')}
        options={[
          { value: 'store', label: t('customerImport.consent.store') },
          { value: 'web', label: t('customerImport.consent.web') },
          { value: 'import', label: t('customerImport.consent.import') },
        ]}
        hint={t('customerImport.consentHint')}
      />
      {progress !== null ? (
        <div className="field">
          <progress
            className="customer-import-progress"
            max={1}
            value={progress}
            aria-label={t('customerImport.progress')}
          />
          <p className="field-hint">
            {progress < 1 ? t('customerImport.sending', { percent: Math.round(progress * 100) }) : t('customerImport.processing')}
          </p>
        </div>
      ) : null}
      <FormError message={error} />
      {answer ? <ImportSummary answer={answer} /> : null}
    </Modal>
  );
}

/** The customers screen's "Import" button and its dialog, for admins. */
export function ImportCustomersButton() {
  const { t } = useTranslation();
  const user = useAppSelector(selectUser);
  const [open, setOpen] = useState(false);
  if (user?.role !== 'admin') return null;
  return (
    <>
      <button type="button" className="btn btn-secondary customer-import-button" onClick={() => setOpen(true)}>
        <ArrowUpTrayIcon aria-hidden="true" width={18} height={18} />
        {t('customerImport.open')}
      </button>
      {open ? <ImportCustomersDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}
