import { ArrowUturnLeftIcon, ChevronLeftIcon, ChevronRightIcon, PencilSquareIcon, TrashIcon } from '@heroicons/react/24/outline';
import { useEffect, useId, useMemo, type Key, type ReactNode } from 'react';
import { SearchBox } from '../SearchBox';
import { useTranslation } from 'react-i18next';
import { LIST_DEFAULT_PAGE_SIZE, LIST_PAGE_SIZES } from '../../lib/constants';
import { pageRange, requestPage, slicePage } from '../../lib/paging';
import { useListState, type ListState } from './useListState';

interface CommonProps<T> {
  title: string;
  getKey: (item: T) => Key;
  /** The row's content (everything but the action buttons). */
  renderItem: (item: T) => ReactNode;
  /** Replaces the default edit/delete buttons. */
  renderActions?: (item: T) => ReactNode;
  onEdit?: (item: T) => void;
  onDelete?: (item: T) => void;
  /** False disables the item's delete button (e.g. the user's own account). */
  canDelete?: (item: T) => boolean;
  /** Tooltip of a disabled delete button. */
  deleteDisabledHint?: string;
  /** Name used in the buttons' accessible labels. */
  itemLabel?: (item: T) => string;
  /** Shown when the list is empty and there is no search text. */
  emptyText: string;
  /** Shown when a search matches nothing. */
  noResultsText: string;
  searchPlaceholder?: string;
  /** False leaves out the search box (a list with no text to search). */
  searchable?: boolean;
  pageSizes?: readonly number[];
  defaultPageSize?: number;
  /** Extra controls in the list header (e.g. a create button). */
  headerActions?: ReactNode;
  loading?: boolean;
  /**
   * The inactive records: a 'show inactive' switch in the toolbar; while it is on, the parent
   * passes the inactive items, each shown as such with a reactivate button instead of its actions.
   */
  inactive?: InactiveFilter<T>;
}

export interface InactiveFilter<T> {
  shown: boolean;
  onShownChange: (shown: boolean) => void;
  onReactivate: (item: T) => void;
  /** The item being reactivated (its button waits). */
  reactivating?: T | null;
}

/** The whole list is here; search and paging happen in the browser. */
interface ClientModeProps<T> extends CommonProps<T> {
  mode?: 'client';
  items: readonly T[];
  filter: (item: T, search: string) => boolean;
  state?: ListState;
  total?: undefined;
}

/**
 * The parent fetches one page: it reads `state` (search, page, pageSize) for its query and passes
 * that page's items and the total count of matches. Pass the last known total while loading.
 */
interface ServerModeProps<T> extends CommonProps<T> {
  mode: 'server';
  items: readonly T[];
  total: number;
  /** The total is a lower bound (a long history counted only so far). */
  totalIsLowerBound?: boolean;
  state: ListState;
  filter?: undefined;
}

export type PagedListProps<T> = ClientModeProps<T> | ServerModeProps<T>;

/** Searchable, paged list (docs/screens.md, "Lists"), used by every list screen. */
export function PagedList<T>(props: PagedListProps<T>) {
  const { t } = useTranslation();
  const pageSizeId = useId();
  const inactiveId = useId();
  const pageSizes = props.pageSizes ?? LIST_PAGE_SIZES;
  const internalState = useListState(props.defaultPageSize ?? LIST_DEFAULT_PAGE_SIZE);
  const state = props.state ?? internalState;
  const { search, page, pageSize } = state;

  const filtered = useMemo(
    () => (props.mode === 'server' ? props.items : props.items.filter((item) => props.filter(item, search))),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [props.mode, props.items, props.filter, search],
  );
  const total = props.mode === 'server' ? props.total : filtered.length;
  const range = pageRange(page, total, pageSize);
  const pageItems = props.mode === 'server' ? props.items : slicePage(filtered, range.page, pageSize);

  // A page beyond the total (after filtering or deleting) snaps to the last page.
  const { setPage } = state;
  const loading = props.loading ?? false;
  useEffect(() => {
    if (!loading && range.page !== page) setPage(range.page);
  }, [loading, range.page, page, setPage]);

  function goTo(requested: number) {
    const next = requestPage(range.page, requested, total, pageSize);
    if (next !== range.page) state.setPage(next);
  }

  const isSearching = search.trim() !== '';
  const inactiveShown = props.inactive?.shown ?? false;
  const label = (item: T) => props.itemLabel?.(item) ?? '';

  return (
    <section className="card list-panel" aria-label={props.title}>
      <div className="list-header">
        <h2 className="list-title">{props.title}</h2>
        {props.headerActions ? <div className="list-header-actions">{props.headerActions}</div> : null}
      </div>
      <div className="list-toolbar">
        {props.searchable === false ? null : (
          <SearchBox
            label={t('list.searchLabel')}
            placeholder={props.searchPlaceholder ?? t('list.searchPlaceholder')}
            value={search}
            onChange={state.setSearch}
          />
        )}
        <div className="page-size">
          <label htmlFor={pageSizeId}>{t('list.perPage')}</label>
          <select
            id={pageSizeId}
            className="input page-size-select"
            value={pageSize}
            onChange={(event) => state.setPageSize(Number(event.target.value))}
          >
            {pageSizes.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </div>
        {props.inactive ? (
          <div className="inactive-switch">
            <input
              id={inactiveId}
              type="checkbox"
              checked={props.inactive.shown}
              onChange={(event) => props.inactive?.onShownChange(event.target.checked)}
            />
            <label htmlFor={inactiveId}>{t('list.showInactive')}</label>
          </div>
        ) : null}
      </div>

      {total === 0 ? (
        <p className="list-empty" data-testid="list-empty">
          {isSearching ? props.noResultsText : inactiveShown ? t('list.noInactive') : props.emptyText}
        </p>
      ) : (
        <ul className="list-rows">
          {pageItems.map((item) => (
            <li key={props.getKey(item)} className={inactiveShown ? 'list-row list-row-inactive' : 'list-row'}>
              <div className="list-row-content">{props.renderItem(item)}</div>
              <div className="list-row-actions">
                {inactiveShown ? (
                  <>
                    <span className="badge badge-muted">{t('list.inactive')}</span>
                    <button
                      type="button"
                      className="btn btn-secondary btn-sm"
                      onClick={() => props.inactive?.onReactivate(item)}
                      disabled={props.inactive?.reactivating != null}
                      aria-label={`${t('list.reactivate')} ${label(item)}`.trim()}
                    >
                      <ArrowUturnLeftIcon aria-hidden="true" />
                      {props.inactive?.reactivating === item ? t('list.reactivating') : t('list.reactivate')}
                    </button>
                  </>
                ) : props.renderActions ? (
                  props.renderActions(item)
                ) : (
                  <>
                    {props.onEdit ? (
                      <button
                        type="button"
                        className="icon-button"
                        onClick={() => props.onEdit?.(item)}
                        aria-label={`${t('common.edit')} ${label(item)}`.trim()}
                        title={t('common.edit')}
                      >
                        <PencilSquareIcon aria-hidden="true" />
                      </button>
                    ) : null}
                    {props.onDelete ? (
                      <button
                        type="button"
                        className="icon-button icon-button-danger"
                        onClick={() => props.onDelete?.(item)}
                        disabled={props.canDelete ? !props.canDelete(item) : false}
                        aria-label={`${t('common.delete')} ${label(item)}`.trim()}
                        title={
                          props.canDelete && !props.canDelete(item) && props.deleteDisabledHint
                            ? props.deleteDisabledHint
                            : t('common.delete')
                        }
                      >
                        <TrashIcon aria-hidden="true" />
                      </button>
                    ) : null}
                  </>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}

      <nav className="list-footer" aria-label={t('list.pagination')}>
        <span className="list-range" data-testid="list-range">
          {t(props.mode === 'server' && props.totalIsLowerBound ? 'list.showingAtLeast' : 'list.showing', {
            start: range.start,
            end: range.end,
            total: range.total,
          })}
        </span>
        <div className="list-pager">
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() => goTo(range.page - 1)}
            disabled={!range.hasPrevious}
          >
            <ChevronLeftIcon aria-hidden="true" />
            {t('list.previous')}
          </button>
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() => goTo(range.page + 1)}
            disabled={!range.hasNext}
          >
            {t('list.next')}
            <ChevronRightIcon aria-hidden="true" />
          </button>
        </div>
      </nav>
    </section>
  );
}
