import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../../app/feedback';
import { useFormat } from '../../../app/useFormat';
import { FormDialog } from '../../../components/FormDialog';
import { TextField } from '../../../components/FormField';
import { LoadError } from '../../../components/LoadError';
import { Modal } from '../../../components/Modal';
import { PageHeader } from '../../../components/PageHeader';
import type { CreatedWebhook, Webhook } from '../../../lib/types';
import {
  WEBHOOK_EVENTS,
  useCreateWebhookMutation,
  useDeleteWebhookMutation,
  useEnableWebhookMutation,
  useGetWebhookDeliveriesQuery,
  useGetWebhooksQuery,
  useResendWebhookDeliveryMutation,
} from './webhooksApi';

/** The add dialog: address and events; on success the parent shows the secret. */
function AddWebhookDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (created: CreatedWebhook) => void }) {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['points.accredited']);
  const [error, setError] = useState<string | null>(null);
  const [create, { isLoading }] = useCreateWebhookMutation();

  async function submit() {
    setError(null);
    try {
      onCreated(await create({ url: url.trim(), events }).unwrap());
    } catch (failure) {
      setError(feedback.errorText(failure));
    }
  }

  function toggle(event: string) {
    setEvents((current) => (current.includes(event) ? current.filter((e) => e !== event) : [...current, event]));
  }

  return (
    <FormDialog
      open
      title={t('settings.webhooks.addTitle')}
      onClose={onClose}
      onSubmit={() => void submit()}
      submitting={isLoading}
      error={error}
      submitLabel={t('settings.webhooks.add')}
      submittingLabel={t('settings.webhooks.adding')}
    >
      <TextField
        label={t('settings.webhooks.url')}
        value={url}
        onChange={setUrl}
        hint={t('settings.webhooks.urlHint')}
        required
        type="url"
      />
      <fieldset className="field">
        <legend className="field-label">{t('settings.webhooks.events')}</legend>
        {WEBHOOK_EVENTS.map((event) => (
          <label key={event} className="checkbox-row">
            <input
              type="checkbox"
              className="checkbox"
              checked={events.includes(event)}
              onChange={() => toggle(event)}
            />
            {t(`settings.webhooks.eventNames.${event.replace('.', '_')}` as 'settings.webhooks.eventNames.points_accredited')}
            <span className="row-meta"> ({event})</span>
          </label>
        ))}
      </fieldset>
    </FormDialog>
  );
}

/** The secret of a new endpoint, shown this once. */
function SecretDialog({ created, onClose }: { created: CreatedWebhook; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal open title={t('settings.webhooks.secretTitle')} onClose={onClose}>
      <p>{t('settings.webhooks.secretOnce')}</p>
      <p>
        <code className="webhook-secret" aria-label={t('settings.webhooks.secret')}>
          {created.secret}
        </code>
      </p>
      <div className="modal-actions">
        <button type="button" className="btn btn-primary" onClick={onClose}>
          {t('settings.webhooks.secretSaved')}
        </button>
      </div>
    </Modal>
  );
}

/** An endpoint's newest deliveries, with re-send. */
function Deliveries({ webhook }: { webhook: Webhook }) {
  const { t } = useTranslation();
  const format = useFormat();
  const feedback = useFeedback();
  const { data, isError, refetch, isFetching } = useGetWebhookDeliveriesQuery(webhook.id);
  const [resend] = useResendWebhookDeliveryMutation();

  async function resendOne(deliveryId: number) {
    try {
      await resend({ webhookId: webhook.id, deliveryId }).unwrap();
      feedback.success('settings.webhooks.resent');
    } catch (failure) {
      feedback.failure(failure);
    }
  }

  if (isError) return <LoadError message={t('settings.webhooks.loadError')} onRetry={() => void refetch()} />;
  return (
    <section aria-label={t('settings.webhooks.deliveriesOf', { url: webhook.url })}>
      <div className="page-actions">
        <button type="button" className="btn btn-secondary" onClick={() => void refetch()} disabled={isFetching}>
          {t('settings.webhooks.refresh')}
        </button>
      </div>
      {data && data.length === 0 ? <p className="row-meta">{t('settings.webhooks.noDeliveries')}</p> : null}
      {data && data.length > 0 ? (
        <div className="table-scroll">
          <table className="table">
            <caption className="visually-hidden">{t('settings.webhooks.deliveries')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('settings.webhooks.event')}</th>
                <th scope="col">{t('settings.webhooks.status')}</th>
                <th scope="col">{t('settings.webhooks.attempts')}</th>
                <th scope="col">{t('settings.webhooks.lastAttempt')}</th>
                <th scope="col">{t('settings.webhooks.messageId')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('settings.webhooks.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.map((delivery) => (
                <tr key={delivery.id}>
                  <td>{delivery.eventType}</td>
                  <td>
                    {t(`settings.webhooks.statuses.${delivery.status}` as 'settings.webhooks.statuses.pending')}
                    {delivery.lastStatus != null || delivery.lastError ? (
                      <span className="row-meta"> ({delivery.lastStatus ?? delivery.lastError})</span>
                    ) : null}
                  </td>
                  <td>{format.number(delivery.attempts)}</td>
                  <td>{delivery.lastAttemptAt ? format.dateTime(delivery.lastAttemptAt) : '—'}</td>
                  <td>
                    <code>{delivery.messageId}</code>
                  </td>
                  <td>
                    <button type="button" className="btn btn-secondary" onClick={() => void resendOne(delivery.id)}>
                      {t('settings.webhooks.resend')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

function WebhookCard({ webhook }: { webhook: Webhook }) {
  const { t } = useTranslation();
  const format = useFormat();
  const feedback = useFeedback();
  const [open, setOpen] = useState(false);
  const [enable, { isLoading: enabling }] = useEnableWebhookMutation();
  const [remove, { isLoading: removing }] = useDeleteWebhookMutation();

  async function run(action: () => Promise<unknown>, done: 'settings.webhooks.enabled' | 'settings.webhooks.deleted') {
    try {
      await action();
      feedback.success(done);
    } catch (failure) {
      feedback.failure(failure);
    }
  }

  return (
    <li className="card settings-card">
      <div className="page-header">
        <div>
          <p className="row-title">{webhook.url}</p>
          <p className="row-meta">{webhook.events.join(', ')}</p>
        </div>
        <div className="page-actions">
          {webhook.disabledAt ? (
            <button
              type="button"
              className="btn btn-primary"
              disabled={enabling}
              onClick={() => void run(() => enable(webhook.id).unwrap(), 'settings.webhooks.enabled')}
            >
              {t('settings.webhooks.enable')}
            </button>
          ) : null}
          <button type="button" className="btn btn-secondary" aria-expanded={open} onClick={() => setOpen(!open)}>
            {t('settings.webhooks.deliveries')}
          </button>
          <button
            type="button"
            className="btn btn-danger"
            disabled={removing}
            onClick={() => void run(() => remove(webhook.id).unwrap(), 'settings.webhooks.deleted')}
          >
            {t('settings.webhooks.delete')}
          </button>
        </div>
      </div>
      {webhook.disabledAt ? (
        <p role="alert" className="form-error">
          {t('settings.webhooks.disabledNotice', { date: format.dateTime(webhook.disabledAt) })}
        </p>
      ) : null}
      {open ? <Deliveries webhook={webhook} /> : null}
    </li>
  );
}

/** /settings/webhooks (admin): endpoints that receive the company's events, signed. */
export function WebhooksPage() {
  const { t } = useTranslation();
  const { data, isError, isLoading, refetch } = useGetWebhooksQuery();
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const disabled = data?.filter((webhook) => webhook.disabledAt).length ?? 0;

  return (
    <div>
      <PageHeader
        title={t('settings.webhooks.title')}
        subtitle={t('settings.webhooks.subtitle')}
        actions={
          <button type="button" className="btn btn-primary" onClick={() => setAdding(true)}>
            {t('settings.webhooks.addButton')}
          </button>
        }
      />
      {disabled > 0 ? (
        <p role="alert" className="card form-error">
          {t('settings.webhooks.disabledCount', { count: disabled })}
        </p>
      ) : null}
      {isError ? <LoadError message={t('settings.webhooks.loadError')} onRetry={() => void refetch()} /> : null}
      {!isLoading && data && data.length === 0 ? <p className="card">{t('settings.webhooks.empty')}</p> : null}
      <ul className="webhook-list">
        {data?.map((webhook) => <WebhookCard key={webhook.id} webhook={webhook} />)}
      </ul>
      {adding ? (
        <AddWebhookDialog
          onClose={() => setAdding(false)}
          onCreated={(result) => {
            setAdding(false);
            setCreated(result);
          }}
        />
      ) : null}
      {created ? <SecretDialog created={created} onClose={() => setCreated(null)} /> : null}
    </div>
  );
}
