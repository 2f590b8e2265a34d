import { PlusIcon } from '@heroicons/react/24/outline';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../app/feedback';
import { FieldLabel, FormError, SelectField, TextField } from '../../components/FormField';
import { FormDialog } from '../../components/FormDialog';
import { LoadError } from '../../components/LoadError';
import { PageHeader } from '../../components/PageHeader';
import type { DataRequest } from '../../lib/types';
import { allowedActions, formatDay, type RequestAction } from './dataRequests';
import {
  useCreateDataRequestMutation,
  useListDataRequestsQuery,
  useUpdateDataRequestMutation,
  type RequestKind,
  type RequestStatus,
} from './dataRequestsApi';
import { RequestClock } from './RequestClock';
import { useFormat } from '../../app/useFormat';
import './dataRequests.css';

const PAGE_SIZE = 10;
const STATUSES: readonly RequestStatus[] = ['open', 'incomplete', 'answered', 'closed'];
const KINDS: readonly RequestKind[] = ['consulta', 'reclamo'];

function TextAreaField({ label, value, onChange, required }: { label: string; value: string; onChange: (v: string) => void; required?: boolean }) {
  const id = useId();
  return (
    <div className="field">
      <FieldLabel htmlFor={id} label={label} required={required} />
      <textarea id={id} className="input textarea" rows={4} value={value} aria-required={required || undefined} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}

/** Files a consulta or a reclamo for a holder's document. */
function FileRequestDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const [create, { isLoading }] = useCreateDataRequestMutation();
  const [document, setDocument] = useState('');
  const [kind, setKind] = useState<RequestKind>('consulta');
  const [subject, setSubject] = useState('');
  const [details, setDetails] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function submit() {
    if (!document.trim() || !subject.trim() || !details.trim()) {
      setError(t('dataRequests.file.required'));
      return;
    }
    try {
      await create({ document, kind, subject, details }).unwrap();
      feedback.success('dataRequests.file.success');
      onClose();
    } catch (failure) {
      setError(feedback.errorText(failure));
    }
  }

  return (
    <FormDialog
      open
      title={t('dataRequests.file.title')}
      onClose={onClose}
      onSubmit={() => void submit()}
      submitting={isLoading}
      error={error}
      submitLabel={t('dataRequests.file.submit')}
      submittingLabel={t('common.saving')}
    >
      <div className="form-fields">
        <p className="field-hint">{t('dataRequests.file.hint')}</p>
        <TextField label={t('fields.document')} value={document} onChange={setDocument} required autoComplete="off" />
        <SelectField
          label={t('dataRequests.kind')}
          value={kind}
          onChange={(v) => setKind(v as RequestKind)}
          options={KINDS.map((k) => ({ value: k, label: t(`dataRequests.kinds.${k}`) }))}
          hint={t(`dataRequests.kindHints.${kind}`)}
          required
        />
        <TextField label={t('fields.subject')} value={subject} onChange={setSubject} required maxLength={200} />
        <TextAreaField label={t('fields.details')} value={details} onChange={setDetails} required />
      </div>
    </FormDialog>
  );
}

/** Confirms an action on a request, with its reason or answer when it needs one. */
function ActionDialog({ request, action, onClose }: { request: DataRequest; action: RequestAction; onClose: () => void }) {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const [update, { isLoading }] = useUpdateDataRequestMutation();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const needsText = action === 'extend' || action === 'incomplete' || action === 'answer';

  async function submit() {
    if (needsText && !text.trim()) {
      setError(t('dataRequests.actions.textRequired'));
      return;
    }
    const body = action === 'answer' ? { action, answer: text } : needsText ? { action, reason: text } : { action };
    try {
      await update({ id: request.id, ...body }).unwrap();
      feedback.success(`dataRequests.actions.done.${action}`);
      onClose();
    } catch (failure) {
      setError(feedback.errorText(failure));
    }
  }

  return (
    <FormDialog
      open
      title={t(`dataRequests.actions.titles.${action}`, { subject: request.subject })}
      onClose={onClose}
      onSubmit={() => void submit()}
      submitting={isLoading}
      error={error}
      submitLabel={t(`dataRequests.actions.buttons.${action}`)}
      submittingLabel={t('common.saving')}
    >
      <div className="form-fields">
        <p className="field-hint">{t(`dataRequests.actions.hints.${action}`)}</p>
        {needsText ? (
          <TextAreaField label={t(action === 'answer' ? 'fields.answer' : 'fields.reason')} value={text} onChange={setText} required />
        ) : null}
      </div>
    </FormDialog>
  );
}

function RequestRow({ request, onAction }: { request: DataRequest; onAction: (action: RequestAction) => void }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <li data-testid={`data-request-${request.id}`}>
      <div className="request-row-text">
        <span className="row-title">
          {request.subject} <span className="badge badge-muted">{t(`dataRequests.kinds.${request.kind as RequestKind}`)}</span>{' '}
          <span className="badge">{t(`dataRequests.statuses.${request.status as RequestStatus}`)}</span>
        </span>
        <span className="row-meta">
          {t('dataRequests.holder', { holder: request.customerName ?? format.document(request.document) })}
          {' · '}
          {t('dataRequests.filedOn', { date: formatDay(request.filedOn, format.locale), user: request.filedBy })}
          {request.extended ? ` · ${t('dataRequests.extended')}` : null}
        </span>
        <span className="row-meta request-details">{request.details}</span>
        {request.incompleteReason && request.status === 'incomplete' ? (
          <span className="row-meta">{t('dataRequests.incompleteReason', { reason: request.incompleteReason })}</span>
        ) : null}
        {request.answer ? <span className="row-meta request-details">{t('dataRequests.answerValue', { answer: request.answer })}</span> : null}
        {request.status === 'open' || request.status === 'incomplete' ? <RequestClock request={request} /> : null}
      </div>
      <div className="request-row-actions">
        {allowedActions(request).map((action) => (
          <button key={action} type="button" className="btn btn-secondary btn-sm" onClick={() => onAction(action)}>
            {t(`dataRequests.actions.buttons.${action}`)}
          </button>
        ))}
      </div>
    </li>
  );
}

/** /solicitudes-datos: the holders' consultas and reclamos with their legal clock (docs/privacy.md). */
export function DataRequestsPage() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<RequestStatus | ''>('');
  const [kind, setKind] = useState<RequestKind | ''>('');
  const [page, setPage] = useState(1);
  const [filing, setFiling] = useState(false);
  const [acting, setActing] = useState<{ request: DataRequest; action: RequestAction } | null>(null);
  const list = useListDataRequestsQuery({ status, kind, page, pageSize: PAGE_SIZE });
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  return (
    <section className="page data-requests">
      <PageHeader
        title={t('dataRequests.title')}
        subtitle={t('dataRequests.subtitle')}
        actions={
          <button type="button" className="btn btn-primary" onClick={() => setFiling(true)}>
            <PlusIcon aria-hidden="true" />
            {t('dataRequests.file.open')}
          </button>
        }
      />
      <section className="card" aria-labelledby="data-requests-list-title">
        <h2 id="data-requests-list-title" className="card-title">
          {t('dataRequests.listTitle')}
        </h2>
        <div className="request-filters">
          <SelectField
            label={t('dataRequests.status')}
            value={status}
            onChange={(v) => {
              setStatus(v as RequestStatus | '');
              setPage(1);
            }}
            emptyOption={t('dataRequests.allStatuses')}
            options={STATUSES.map((s) => ({ value: s, label: t(`dataRequests.statuses.${s}`) }))}
          />
          <SelectField
            label={t('dataRequests.kind')}
            value={kind}
            onChange={(v) => {
              setKind(v as RequestKind | '');
              setPage(1);
            }}
            emptyOption={t('dataRequests.allKinds')}
            options={KINDS.map((k) => ({ value: k, label: t(`dataRequests.kinds.${k}`) }))}
          />
        </div>
        {list.isError ? <LoadError message={t('dataRequests.errorLoading')} onRetry={() => void list.refetch()} /> : null}
        {list.data && list.data.items.length === 0 ? <p className="row-meta">{t('dataRequests.empty')}</p> : null}
        {list.isLoading ? <p className="row-meta">{t('common.loading')}</p> : null}
        <ul className="request-list" aria-busy={list.isFetching}>
          {(list.data?.items ?? []).map((request) => (
            <RequestRow key={request.id} request={request} onAction={(action) => setActing({ request, action })} />
          ))}
        </ul>
        <nav className="list-footer" aria-label={t('list.pagination')}>
          <span className="list-range">{t('dataRequests.pageOf', { page, pages, total })}</span>
          <div className="list-pager">
            <button type="button" className="btn btn-secondary btn-sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              {t('list.previous')}
            </button>
            <button type="button" className="btn btn-secondary btn-sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
              {t('list.next')}
            </button>
          </div>
        </nav>
      </section>
      <FormError message={null} />
      {filing ? <FileRequestDialog onClose={() => setFiling(false)} /> : null}
      {acting ? <ActionDialog request={acting.request} action={acting.action} onClose={() => setActing(null)} /> : null}
    </section>
  );
}
