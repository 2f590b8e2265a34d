import { ArrowPathIcon, ChevronDownIcon, ChevronUpIcon } from '@heroicons/react/24/outline';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiErrorMessage } from '../../app/api';
import { useAppDispatch } from '../../app/hooks';
import { toastShown } from '../../app/toasts';
import { useFormat } from '../../app/useFormat';
import { SearchBox } from '../../components/SearchBox';
import { intlLocale } from '../../lib/format';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import {
  formatBytes,
  useGetCompanyStatsQuery,
  useRefreshCompanyStatsMutation,
  type SortOrder,
  type StatsSort,
} from './companyStatsApi';
import './companyStats.css';

const PAGE_SIZES = [10, 25, 50] as const;
const SEARCH_DEBOUNCE_MS = 300;

/** Columns in the table's order; text columns sort up first, figures down first. */
const COLUMNS: readonly { sort: StatsSort; numeric: boolean }[] = [
  { sort: 'name', numeric: false },
  { sort: 'prefix', numeric: false },
  { sort: 'schemaVersion', numeric: true },
  { sort: 'customers', numeric: true },
  { sort: 'transactions30d', numeric: true },
  { sort: 'sizeBytes', numeric: true },
  { sort: 'lastActivityAt', numeric: true },
  { sort: 'computedAt', numeric: true },
];

/**
 * The operator's view of every company (docs/screens.md, "Super admin"): figures per company
 * read page by page from the server, sorted by any column, with the platform's totals and a
 * button that computes the figures again.
 */
export function CompanyStatsPanel() {
  const { t } = useTranslation();
  const format = useFormat();
  const dispatch = useAppDispatch();
  const pageSizeId = useId();
  const [sort, setSort] = useState<StatsSort>('name');
  const [order, setOrder] = useState<SortOrder>('asc');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZES[0]);
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const { data, isFetching, isError } = useGetCompanyStatsQuery({ sort, order, page, pageSize, q });
  const [refresh, refreshState] = useRefreshCompanyStatsMutation();

  const bytes = (value: number) => formatBytes(value, intlLocale(format.locale));
  const total = data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / pageSize));

  function sortBy(column: StatsSort, numeric: boolean) {
    if (column === sort) {
      setOrder(order === 'asc' ? 'desc' : 'asc');
    } else {
      setSort(column);
      setOrder(numeric ? 'desc' : 'asc');
    }
    setPage(1);
  }

  async function handleRefresh() {
    try {
      const result = await refresh().unwrap();
      dispatch(
        toastShown(result.failed > 0 ? 'error' : 'success', {
          messageKey: result.failed > 0 ? 'superAdmin.stats.refreshPartial' : 'superAdmin.stats.refreshDone',
          params: { refreshed: result.refreshed, failed: result.failed },
        }),
      );
    } catch (failure) {
      const message = apiErrorMessage(failure);
      dispatch(toastShown('error', message ? { message } : { messageKey: 'common.errorGeneric' }));
    }
  }

  const totals = data?.totals;

  return (
    <section className="card list-panel company-stats" aria-labelledby={`${pageSizeId}-title`}>
      <div className="list-header">
        <h2 className="list-title" id={`${pageSizeId}-title`}>
          {t('superAdmin.stats.title')}
        </h2>
        <div className="list-header-actions">
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => void handleRefresh()}
            disabled={refreshState.isLoading}
          >
            <ArrowPathIcon aria-hidden="true" />
            {refreshState.isLoading ? t('superAdmin.stats.refreshing') : t('superAdmin.stats.refresh')}
          </button>
        </div>
      </div>
      <p className="stats-note" data-testid="stats-computed-at">
        {totals?.computedAt
          ? t('superAdmin.stats.computedAt', { time: format.dateTime(totals.computedAt) })
          : t('superAdmin.stats.neverComputed')}
      </p>

      {totals ? (
        <div role="group" aria-label={t('superAdmin.stats.totals')}>
          <dl className="stats-totals">
          <div>
            <dt>{t('superAdmin.stats.totalCompanies')}</dt>
            <dd data-testid="stats-total-companies">{format.number(totals.companies)}</dd>
          </div>
          <div>
            <dt>{t('superAdmin.stats.columns.customers')}</dt>
            <dd data-testid="stats-total-customers">{format.number(totals.customers)}</dd>
          </div>
          <div>
            <dt>{t('superAdmin.stats.columns.transactions30d')}</dt>
            <dd data-testid="stats-total-transactions">{format.number(totals.transactions30d)}</dd>
          </div>
          <div>
            <dt>{t('superAdmin.stats.columns.sizeBytes')}</dt>
            <dd data-testid="stats-total-size">{bytes(totals.sizeBytes)}</dd>
          </div>
          </dl>
        </div>
      ) : null}

      <div className="list-toolbar">
        <SearchBox
          label={t('superAdmin.stats.searchLabel')}
          placeholder={t('superAdmin.searchPlaceholder')}
          value={search}
          onChange={(value) => {
            setSearch(value);
            setPage(1);
          }}
        />
        <div className="page-size">
          <label htmlFor={pageSizeId}>{t('list.perPage')}</label>
          <select
            id={pageSizeId}
            className="input page-size-select"
            value={pageSize}
            onChange={(event) => {
              setPageSize(Number(event.target.value));
              setPage(1);
            }}
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </div>
      </div>

      {isError ? (
        <p className="list-empty" role="alert">
          {t('common.errorLoadingData')}
        </p>
      ) : (
        <div className="table-scroll">
          <table className="stats-table" aria-busy={isFetching}>
            <caption className="visually-hidden">{t('superAdmin.stats.caption')}</caption>
            <thead>
              <tr>
                {COLUMNS.map(({ sort: column, numeric }) => {
                  const sorted = column === sort;
                  const Arrow = order === 'asc' ? ChevronUpIcon : ChevronDownIcon;
                  return (
                    <th
                      key={column}
                      scope="col"
                      className={numeric ? 'numeric' : undefined}
                      aria-sort={sorted ? (order === 'asc' ? 'ascending' : 'descending') : undefined}
                    >
                      <button type="button" className="sort-button" onClick={() => sortBy(column, numeric)}>
                        {t(`superAdmin.stats.columns.${column}`)}
                        {sorted ? <Arrow className="sort-icon" aria-hidden="true" /> : null}
                      </button>
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {data && data.items.length === 0 ? (
                <tr>
                  <td colSpan={COLUMNS.length}>{q.trim() ? t('superAdmin.noResults') : t('superAdmin.noCompanies')}</td>
                </tr>
              ) : null}
              {data?.items.map((row) => (
                <tr key={row.companyId} data-testid={`stats-row-${row.prefix}`}>
                  <th scope="row">{row.name}</th>
                  <td>{`@${row.prefix}`}</td>
                  <td className="numeric">{row.schemaVersion ?? '—'}</td>
                  <td className="numeric">{row.customers != null ? format.number(row.customers) : '—'}</td>
                  <td className="numeric">{row.transactions30d != null ? format.number(row.transactions30d) : '—'}</td>
                  <td className="numeric">{row.sizeBytes != null ? bytes(row.sizeBytes) : '—'}</td>
                  <td className="numeric">
                    {row.lastActivityAt ? format.dateTime(row.lastActivityAt) : t('superAdmin.stats.noActivity')}
                  </td>
                  <td className="numeric">{row.computedAt ? format.dateTime(row.computedAt) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <nav className="list-footer" aria-label={t('superAdmin.stats.pagination')}>
        <span className="list-range" data-testid="stats-range">
          {t('superAdmin.stats.pageOf', { page: Math.min(page, pages), pages, total })}
        </span>
        <div className="list-pager">
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() => setPage(page - 1)}
            disabled={page <= 1}
          >
            {t('list.previous')}
          </button>
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() => setPage(page + 1)}
            disabled={page >= pages}
          >
            {t('list.next')}
          </button>
        </div>
      </nav>
    </section>
  );
}
