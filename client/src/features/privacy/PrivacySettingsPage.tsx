import { PlusIcon, TrashIcon } from '@heroicons/react/24/outline';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../app/feedback';
import { useAppSelector } from '../../app/hooks';
import { selectUser } from '../../app/session';
import { useFormat } from '../../app/useFormat';
import { FormError, TextField } from '../../components/FormField';
import { LoadError } from '../../components/LoadError';
import { PageHeader } from '../../components/PageHeader';
import { apiErrorMessage } from '../../app/api';
import { publicNoticePath } from './consent';
import { useGetPrivacyNoticesQuery, usePublishNoticeMutation, type PrivacyNotice } from './privacyApi';

interface PurposeRow {
  key: string;
  description: string;
}

const REQUIRED = 'loyalty';

function rowsOf(notice: PrivacyNotice): PurposeRow[] {
  return notice.purposes.map(({ key, description }) => ({ key, description }));
}

/**
 * /settings/privacy (admins): every version of the company's privacy notice, and the form that
 * publishes the next one, starting from the one in force. A version is never edited.
 */
export function PrivacySettingsPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const prefix = useAppSelector(selectUser)?.company?.prefix ?? '';
  const query = useGetPrivacyNoticesQuery();
  const current = query.data?.[0];

  return (
    <section className="page privacy-settings">
      <PageHeader title={t('privacy.settings.title')} subtitle={t('privacy.settings.subtitle')} />
      {query.isError ? <LoadError message={t('privacy.settings.errorLoading')} onRetry={() => void query.refetch()} /> : null}
      {current ? (
        <>
          <p className="field-hint">
            {t('privacy.settings.inForce', { version: current.version })}{' '}
            <a href={publicNoticePath(prefix)} target="_blank" rel="noreferrer">
              {t('privacy.settings.publicLink')}
            </a>
          </p>
          {/* The form starts again from each version published. */}
          <PublishForm key={current.version} current={current} />
        </>
      ) : null}
      <section className="card" aria-label={t('privacy.settings.versions')}>
        <h2 className="card-title">{t('privacy.settings.versions')}</h2>
        <ol className="privacy-versions">
          {(query.data ?? []).map((notice) => (
            <li key={notice.version}>
              <details>
                <summary>
                  {t('privacy.settings.versionLine', {
                    version: notice.version,
                    date: format.dateTime(notice.publishedAt),
                    by: notice.publishedBy === 'system' ? t('common.system') : notice.publishedBy,
                  })}
                </summary>
                <div className="privacy-notice-body">{notice.body}</div>
                <ul>
                  {notice.purposes.map((purpose) => (
                    <li key={purpose.key}>
                      <code>{purpose.key}</code>: {purpose.description}
                    </li>
                  ))}
                </ul>
              </details>
            </li>
          ))}
        </ol>
      </section>
    </section>
  );
}

/** The next version: the text and the purposes, starting from the version in force. */
function PublishForm({ current }: { current: PrivacyNotice }) {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const [publish, { isLoading: publishing }] = usePublishNoticeMutation();
  const [body, setBody] = useState(current.body);
  const [purposes, setPurposes] = useState<PurposeRow[]>(() => rowsOf(current));
  const [error, setError] = useState<string | null>(null);

  const setPurpose = (index: number, change: Partial<PurposeRow>) =>
    setPurposes((rows) => rows.map((row, i) => (i === index ? { ...row, ...change } : row)));

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (body.trim() === '') {
      setError(t('privacy.settings.errorBodyRequired'));
      return;
    }
    if (purposes.some((row) => row.key.trim() === '' || row.description.trim() === '')) {
      setError(t('privacy.settings.errorPurposeIncomplete'));
      return;
    }
    setError(null);
    try {
      const published = await publish({
        body: body.trim(),
        purposes: purposes.map((row) => ({ key: row.key.trim(), description: row.description.trim() })),
      }).unwrap();
      feedback.success('privacy.settings.published', { version: published.version });
    } catch (failure) {
      setError(apiErrorMessage(failure) ?? t('common.errorGeneric'));
    }
  }

  return (
    <form className="card form-fields privacy-publish" onSubmit={(e) => void handleSubmit(e)} noValidate aria-label={t('privacy.settings.formTitle')}>
      <h2 className="card-title">{t('privacy.settings.formTitle')}</h2>
      <p className="field-hint">{t('privacy.settings.formHint')}</p>
      <div className="field">
        <label htmlFor="privacy-body" className="field-label">
          {t('privacy.settings.body')}
        </label>
        <textarea
          id="privacy-body"
          name="body"
          className="input textarea"
          rows={14}
          maxLength={20000}
          value={body}
          onChange={(event) => setBody(event.target.value)}
        />
      </div>
      <fieldset className="privacy-purposes-editor">
        <legend>{t('privacy.settings.purposes')}</legend>
        {purposes.map((row, index) => (
          <div className="privacy-purpose-row" key={index}>
            <TextField
              label={t('privacy.settings.purposeKey')}
              value={row.key}
              onChange={(key) => setPurpose(index, { key: key.toLowerCase() })}
              readOnly={row.key === REQUIRED}
              maxLength={30}
            />
            <TextField
              label={t('privacy.settings.purposeDescription')}
              value={row.description}
              onChange={(description) => setPurpose(index, { description })}
              maxLength={500}
              hint={row.key === REQUIRED ? t('privacy.settings.requiredHint') : undefined}
            />
            {row.key !== REQUIRED ? (
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                aria-label={t('privacy.settings.removePurpose', { key: row.key })}
                onClick={() => setPurposes((rows) => rows.filter((_, i) => i !== index))}
              >
                <TrashIcon aria-hidden="true" />
              </button>
            ) : null}
          </div>
        ))}
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={() => setPurposes((rows) => [...rows, { key: '', description: '' }])}
        >
          <PlusIcon aria-hidden="true" />
          {t('privacy.settings.addPurpose')}
        </button>
      </fieldset>
      <FormError message={error} />
      <button type="submit" className="btn btn-primary" disabled={publishing}>
        {publishing ? t('privacy.settings.publishing') : t('privacy.settings.publish')}
      </button>
    </form>
  );
}
