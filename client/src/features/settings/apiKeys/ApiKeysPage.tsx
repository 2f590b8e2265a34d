import { ClipboardDocumentIcon, KeyIcon, TrashIcon } from '@heroicons/react/24/outline';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../../app/feedback';
import { useGetPointsOfSaleQuery } from '../../../app/tenantApi';
import { useFormat } from '../../../app/useFormat';
import { FormDialog } from '../../../components/FormDialog';
import { FormError, SelectField, TextField } from '../../../components/FormField';
import { LoadError } from '../../../components/LoadError';
import { Modal } from '../../../components/Modal';
import { PageHeader } from '../../../components/PageHeader';
import type { ApiKey } from '../../../lib/types';
import { useCreateApiKeyMutation, useGetApiKeysQuery, useRevokeApiKeyMutation } from './apiKeysApi';

/** The form that makes a key; `onMade` gets the key, shown once. */
function CreateKeyForm({ onMade }: { onMade: (key: string) => void }) {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const { data: pointsOfSale = [] } = useGetPointsOfSaleQuery();
  const [createApiKey, { isLoading }] = useCreateApiKeyMutation();
  const [name, setName] = useState('');
  const [posId, setPosId] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setError(t('apiKeys.errorNameRequired'));
    if (!posId) return setError(t('apiKeys.errorPosRequired'));
    setError(null);
    try {
      const made = await createApiKey({ name: name.trim(), posId: Number(posId) }).unwrap();
      setName('');
      setPosId('');
      onMade(made.key);
    } catch (failure) {
      setError(feedback.errorText(failure, 'apiKeys.errorExists'));
    }
  }

  return (
    <section className="card api-key-form" aria-labelledby="api-key-form-title">
      <h2 id="api-key-form-title" className="card-title">
        {t('apiKeys.createTitle')}
      </h2>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <TextField
          label={t('apiKeys.fields.name')}
          name="name"
          value={name}
          onChange={setName}
          required
          maxLength={100}
          hint={t('apiKeys.nameHint')}
        />
        <SelectField
          label={t('apiKeys.fields.pos')}
          name="posId"
          value={posId}
          onChange={setPosId}
          required
          emptyOption={t('apiKeys.choosePos')}
          options={pointsOfSale.map((pos) => ({ value: String(pos.id), label: pos.name }))}
        />
        <FormError message={error} />
        <button type="submit" className="btn btn-primary" disabled={isLoading}>
          <KeyIcon aria-hidden="true" />
          {isLoading ? t('apiKeys.creating') : t('apiKeys.create')}
        </button>
      </form>
    </section>
  );
}

/** The new key, shown this once, with a button that copies it. */
function NewKeyDialog({ apiKey, onClose }: { apiKey: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState<boolean | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(apiKey);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  return (
    <Modal
      open
      title={t('apiKeys.madeTitle')}
      onClose={onClose}
      footer={
        <div className="modal-actions">
          <button type="button" className="btn btn-primary" onClick={onClose}>
            {t('apiKeys.done')}
          </button>
        </div>
      }
    >
      <p className="notice tone-warning">{t('apiKeys.shownOnce')}</p>
      <TextField label={t('apiKeys.fields.key')} name="key" value={apiKey} onChange={() => undefined} readOnly />
      <button type="button" className="btn btn-secondary" onClick={() => void copy()}>
        <ClipboardDocumentIcon aria-hidden="true" />
        {t('apiKeys.copy')}
      </button>
      <p role="status" className="field-hint">
        {copied === true ? t('apiKeys.copied') : copied === false ? t('apiKeys.copyFailed') : ''}
      </p>
    </Modal>
  );
}

/** "Claves de API": a point of sale's system posts through the POS API with one (admin). */
export function ApiKeysPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const feedback = useFeedback();
  const keys = useGetApiKeysQuery();
  const [revokeApiKey, revoking] = useRevokeApiKeyMutation();
  const [made, setMade] = useState<string | null>(null);
  const [revoked, setRevoked] = useState<ApiKey | null>(null);
  const [revokeError, setRevokeError] = useState<string | null>(null);

  async function revoke() {
    if (!revoked) return;
    try {
      await revokeApiKey(revoked.id).unwrap();
      feedback.success('apiKeys.successRevoked', { name: revoked.name });
      setRevoked(null);
    } catch (failure) {
      setRevokeError(feedback.errorText(failure));
    }
  }

  const list = keys.data ?? [];
  return (
    <section className="page api-keys">
      <PageHeader title={t('apiKeys.title')} subtitle={t('apiKeys.subtitle')} />
      <CreateKeyForm onMade={setMade} />
      <section className="card" aria-labelledby="api-key-list-title">
        <h2 id="api-key-list-title" className="card-title">
          {t('apiKeys.listTitle')}
        </h2>
        {keys.isError ? <LoadError message={t('apiKeys.loadError')} onRetry={() => void keys.refetch()} /> : null}
        {keys.isSuccess && list.length === 0 ? <p className="list-empty">{t('apiKeys.empty')}</p> : null}
        {list.length > 0 ? (
          <div className="table-scroll">
            <table className="api-keys-table">
              <thead>
                <tr>
                  <th scope="col">{t('apiKeys.fields.name')}</th>
                  <th scope="col">{t('apiKeys.fields.pos')}</th>
                  <th scope="col">{t('apiKeys.fields.hint')}</th>
                  <th scope="col">{t('apiKeys.fields.created')}</th>
                  <th scope="col">{t('apiKeys.fields.lastUsed')}</th>
                  <th scope="col">{t('apiKeys.fields.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {list.map((key) => (
                  <tr key={key.id} data-testid={`api-key-${key.id}`}>
                    <th scope="row">{key.name}</th>
                    <td>
                      {key.posName}
                      {key.posActive ? null : ` (${t('apiKeys.posInactive')})`}
                    </td>
                    <td>…{key.hint}</td>
                    <td>{t('apiKeys.createdBy', { date: format.dateTime(key.createdAt), user: key.createdBy })}</td>
                    <td>{key.lastUsedAt ? format.dateTime(key.lastUsedAt) : t('apiKeys.neverUsed')}</td>
                    <td>
                      <button
                        type="button"
                        className="btn btn-danger btn-sm"
                        aria-label={t('apiKeys.revokeOf', { name: key.name })}
                        onClick={() => {
                          setRevokeError(null);
                          setRevoked(key);
                        }}
                      >
                        <TrashIcon aria-hidden="true" />
                        {t('apiKeys.revoke')}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
      {made ? <NewKeyDialog apiKey={made} onClose={() => setMade(null)} /> : null}
      <FormDialog
        open={revoked !== null}
        title={t('apiKeys.revokeTitle')}
        tone="danger"
        onClose={() => setRevoked(null)}
        onSubmit={() => void revoke()}
        submitting={revoking.isLoading}
        error={revokeError}
        submitLabel={t('apiKeys.revoke')}
        submittingLabel={t('apiKeys.revoking')}
      >
        <p>{t('apiKeys.revokeConfirm', { name: revoked?.name ?? '' })}</p>
      </FormDialog>
    </section>
  );
}
