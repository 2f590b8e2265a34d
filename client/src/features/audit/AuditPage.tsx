import { XMarkIcon } from '@heroicons/react/24/outline';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { apiErrorMessage } from '../../app/api';
import { useFormat } from '../../app/useFormat';
import { FieldLabel, SelectField } from '../../components/FormField';
import { PagedList, type ListState } from '../../components/list';
import { LoadError } from '../../components/LoadError';
import { PageHeader } from '../../components/PageHeader';
import { LIST_DEFAULT_PAGE_SIZE } from '../../lib/constants';
import type { AuditEntry } from '../../lib/types';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { EMPTY_AUDIT_FILTERS, useSearchAuditQuery, type AuditFilters } from './auditApi';
import { KNOWN_ACTIONS, actionLabel, actorLabel, detailLines, entityOf } from './auditWording';
import './audit.css';

const ACTOR_DEBOUNCE_MS = 300;

function DateFilter({ label, value, min, max, onChange }: { label: string; value: string; min?: string; max?: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="field">
      <FieldLabel htmlFor={id} label={label} />
      <input id={id} className="input" type="date" value={value} min={min} max={max} onChange={(event) => onChange(event.target.value)} />
    </div>
  );
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const format = useFormat();
  const entity = entityOf(entry, t);
  const lines = detailLines(entry, t);
  return (
    <div className="audit-row">
      <div className="audit-row-head">
        <strong className="audit-action" data-action={entry.action}>
          {actionLabel(entry.action, t)}
        </strong>
        <time className="audit-time" dateTime={entry.at}>
          {format.dateTime(entry.at)}
        </time>
      </div>
      <div className="audit-row-meta">
        <span className="audit-actor">{t('audit.by', { actor: actorLabel(entry, t) })}</span>
        {entity ? (
          entity.to ? (
            <Link className="audit-entity" to={entity.to} aria-label={t('audit.entityLink', { entity: entity.text })}>
              {entity.text}
            </Link>
          ) : (
            <span className="audit-entity">{entity.text}</span>
          )
        ) : null}
      </div>
      {lines.length > 0 ? (
        <div className="audit-detail">
          {lines.map((line, index) => (
            <p key={index}>{line}</p>
          ))}
        </div>
      ) : null}
    </div>
  );
}

/** /auditoria: the company's audit trail, newest first, filtered and paged on the server (admins). */
export function AuditPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<Omit<AuditFilters, 'actor'>>(EMPTY_AUDIT_FILTERS);
  const [actor, setActor] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSizeState] = useState(LIST_DEFAULT_PAGE_SIZE);
  const listState: ListState = useMemo(
    () => ({
      search: actor,
      page,
      pageSize,
      setSearch: (text: string) => {
        setActor(text);
        setPage(1);
      },
      setPage,
      setPageSize: (size: number) => {
        setPageSizeState(size);
        setPage(1);
      },
    }),
    [actor, page, pageSize],
  );
  const appliedActor = useDebouncedValue(actor, ACTOR_DEBOUNCE_MS).trim();
  const result = useSearchAuditQuery({ ...filters, actor: appliedActor, page, pageSize });
  const anyFilter = appliedActor !== '' || Object.values(filters).some((value) => value !== '');
  const change = (update: Partial<typeof filters>) => {
    setFilters((current) => ({ ...current, ...update }));
    setPage(1);
  };

  return (
    <section className="page audit">
      <PageHeader title={t('audit.title')} subtitle={t('audit.subtitle')} />
      <section className="card audit-filters" aria-label={t('audit.filters.title')}>
        <SelectField
          label={t('audit.filters.action')}
          value={filters.action}
          onChange={(action) => change({ action })}
          emptyOption={t('audit.filters.allActions')}
          options={KNOWN_ACTIONS.map((action) => ({ value: action, label: actionLabel(action, t) }))}
        />
        <DateFilter label={t('audit.filters.from')} value={filters.from} max={filters.to || undefined} onChange={(from) => change({ from })} />
        <DateFilter label={t('audit.filters.to')} value={filters.to} min={filters.from || undefined} onChange={(to) => change({ to })} />
        <div className="audit-filters-actions">
          <button
            type="button"
            className="btn btn-secondary"
            disabled={!anyFilter && actor === ''}
            onClick={() => {
              setFilters(EMPTY_AUDIT_FILTERS);
              setActor('');
              setPage(1);
            }}
          >
            <XMarkIcon aria-hidden="true" />
            {t('audit.filters.clear')}
          </button>
        </div>
      </section>

      {result.isError && !result.isFetching ? (
        <LoadError message={apiErrorMessage(result.error) ?? t('audit.errorLoading')} onRetry={() => void result.refetch()} />
      ) : null}

      <div aria-busy={result.isFetching}>
        {result.isLoading ? (
          <p className="card list-empty" role="status">
            {t('audit.loading')}
          </p>
        ) : result.isError && !result.data ? null : (
          <PagedList<AuditEntry>
            mode="server"
            title={t('audit.listTitle')}
            items={result.data?.items ?? []}
            total={result.data?.total ?? 0}
            totalIsLowerBound={result.data?.totalExact === false}
            state={listState}
            loading={result.isFetching}
            getKey={(entry) => entry.id}
            searchPlaceholder={t('audit.actorPlaceholder')}
            emptyText={anyFilter ? t('audit.noResults') : t('audit.empty')}
            noResultsText={t('audit.noResults')}
            renderItem={(entry) => <AuditRow entry={entry} />}
            renderActions={() => null}
          />
        )}
      </div>
    </section>
  );
}
