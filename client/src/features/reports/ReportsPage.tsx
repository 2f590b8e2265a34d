import { ArrowDownTrayIcon, ArrowUturnLeftIcon, NoSymbolIcon, PrinterIcon } from '@heroicons/react/24/outline';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { apiErrorMessage, apiErrorStatus } from '../../app/api';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { isNetworkFailure, selectOnline } from '../../app/offline';
import { selectUser } from '../../app/session';
import { useGetPointsOfSaleQuery } from '../../app/tenantApi';
import { useFormat } from '../../app/useFormat';
import { toastShown } from '../../app/toasts';
import { PagedList, type ListState } from '../../components/list';
import { LoadError } from '../../components/LoadError';
import { PageHeader } from '../../components/PageHeader';
import { RowActionButton } from '../../components/RowActionButton';
import type { ReceiptData } from '../../components/receipt/Receipt';
import { ReceiptModal } from '../../components/receipt/ReceiptModal';
import { csvFormat, downloadCsv } from '../../lib/csv';
import { useIdempotentSubmit } from '../../lib/idempotency';
import { byName } from '../../lib/paging';
import { reportSearch, reportStateFromSearch, type ReportUrlState } from '../../lib/reportUrl';
import { SYSTEM_CASHIER, transactionDescription } from '../../lib/ledger';
import { canReprint, canReturn, canVoid, voidNeedsSupervisor } from '../points';
import type { Transaction, TransactionType } from '../../lib/types';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { fetchAllTransactions, type ExportProgress } from './exportAll';
import { CSV_FILENAME, TOTAL_FIGURES, transactionsCsv } from './reportCsv';
import { ReportFiltersBar } from './ReportFiltersBar';
import {
  EMPTY_FILTERS,
  reportsApi,
  useGetReportUsersQuery,
  useGetTransactionTotalsQuery,
  useReturnTransactionMutation,
  useSearchTransactionsQuery,
  useVoidTransactionMutation,
  type ReportFilters,
  type ReportTotals,
} from './reportsApi';
import { ReportTotalsCard } from './ReportTotalsCard';
import { ReturnDialog, type ReturnInput } from './ReturnDialog';
import { TransactionRow } from './TransactionRow';
import { VoidBanner, type VoidResult } from './VoidBanner';
import { VoidDialog } from './VoidDialog';
import type { SupervisorCredentials } from '../../components/SupervisorFields';
import './reports.css';

const SEARCH_DEBOUNCE_MS = 300;
const CSV_COLUMNS = [
  'id',
  'date',
  'cashier',
  'pos',
  'customerDocument',
  'customerName',
  'type',
  'description',
  'points',
  'invoiceAmount',
  'redeemedValue',
  'approvedBy',
] as const;

/** /reportes: filtered, server-paged transactions with CSV export, void and reprint. */
export function ReportsPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const mayListUsers = user?.role === 'admin' || user?.role === 'supervisor';

  // Filters live in the address (lib/reportUrl.ts): read when the screen loads, written as they
  // change (replacing the history entry), so a filtered report survives a reload and can be
  // linked. The screen's state is the truth and the address follows it: the router applies an
  // address change later than a click, so reading it back would lose a quick second change. The
  // customer text is the list's search box; every change goes back to page 1.
  const [searchParams, setSearchParams] = useSearchParams();
  const [view, setView] = useState<ReportUrlState>(() => reportStateFromSearch(searchParams));
  const written = useRef(searchParams.toString());
  useEffect(() => {
    const next = reportSearch(view).toString();
    if (next === written.current) return;
    written.current = next;
    setSearchParams(new URLSearchParams(next), { replace: true });
  }, [view, setSearchParams]);
  const { text: search, ...filters } = view.filters;
  const { page, pageSize } = view;
  const listState: ListState = useMemo(
    () => ({
      search,
      page,
      pageSize,
      setSearch: (text: string) => setView((current) => ({ ...current, filters: { ...current.filters, text }, page: 1 })),
      setPage: (next: number) => setView((current) => ({ ...current, page: next })),
      setPageSize: (size: number) => setView((current) => ({ ...current, pageSize: size, page: 1 })),
    }),
    [search, page, pageSize, setView],
  );
  const text = useDebouncedValue(search, SEARCH_DEBOUNCE_MS).trim();
  const applied: ReportFilters = useMemo(() => ({ ...view.filters, text }), [view.filters, text]);
  const anyFilter = Object.values(applied).some((value) => value !== '');

  const result = useSearchTransactionsQuery({ ...applied, page, pageSize });
  const totals = useGetTransactionTotalsQuery(applied);
  const { data: pointsOfSale } = useGetPointsOfSaleQuery();
  const { data: users } = useGetReportUsersQuery(undefined, { skip: !mayListUsers });

  const posOptions = useMemo(() => [...(pointsOfSale ?? [])].sort(byName((pos: { name: string }) => pos.name)), [pointsOfSale]);
  const cashiers = useMemo(() => {
    const names = mayListUsers ? (users ?? []).map((u) => u.username) : user ? [user.username] : [];
    return [...new Set(names)].sort(byName((name: string) => name)).concat(SYSTEM_CASHIER);
  }, [mayListUsers, users, user]);

  // Void.
  const [voidTransaction, voidState] = useVoidTransactionMutation();
  const submitOnce = useIdempotentSubmit();
  const online = useAppSelector(selectOnline);
  const [voiding, setVoiding] = useState<Transaction | null>(null);
  const [voidError, setVoidError] = useState<string | null>(null);
  const [banner, setBanner] = useState<VoidResult | null>(null);
  const bannerId = useRef(0);
  const hideBanner = useCallback(() => setBanner(null), []);

  function showBanner(kind: VoidResult['kind'], message: string) {
    bannerId.current += 1;
    setBanner({ kind, message, id: bannerId.current });
  }

  async function confirmVoid(credentials: SupervisorCredentials | null) {
    if (!voiding) return;
    const transaction = voiding;
    setVoidError(null);
    // A void needs the server (the balance, the batches): never kept for later (docs/operations.md, "Offline till").
    if (!online) {
      setVoidError(t('offline.voidRefused'));
      return;
    }
    try {
      const outcome = await submitOnce(`void:${transaction.id}`, (idempotencyKey) =>
        voidTransaction({ id: transaction.id, idempotencyKey, ...(credentials ?? {}) }).unwrap(),
      );
      if (!outcome.ran) return;
      setVoiding(null);
      showBanner('success', t('reports.void.success'));
    } catch (failure) {
      // The reason shows in the dialog, where the user is looking; it stays open to retry or cancel.
      const status = apiErrorStatus(failure);
      if (status === 401 && !credentials) return; // the session ended: the app logs out
      setVoidError(
        status === 401
          ? t('reports.void.invalidSupervisor')
          : isNetworkFailure(failure)
            ? t('offline.voidRefused')
            : (apiErrorMessage(failure) ?? t('reports.void.error')),
      );
    }
  }

  // Reprint (and the receipt of a return just recorded).
  const [reprint, setReprint] = useState<ReceiptData | null>(null);

  // Return: started where a void is; its receipt opens once it is recorded.
  const [returnTransaction, returnState] = useReturnTransactionMutation();
  const [returning, setReturning] = useState<Transaction | null>(null);
  const [returnError, setReturnError] = useState<string | null>(null);

  async function confirmReturn({ returnedAmount, invoiceReference, credentials }: ReturnInput) {
    if (!returning) return;
    const transaction = returning;
    setReturnError(null);
    try {
      const outcome = await submitOnce(`return:${transaction.id}:${returnedAmount}:${invoiceReference}`, (idempotencyKey) =>
        returnTransaction({
          id: transaction.id,
          idempotencyKey,
          returnedAmount,
          ...(invoiceReference ? { invoiceReference } : {}),
          ...(credentials ?? {}),
        }).unwrap(),
      );
      if (!outcome.ran) return;
      const row = outcome.result.newTransaction;
      setReturning(null);
      showBanner('success', t('reports.return.success', { points: format.number(Math.abs(row.points)) }));
      setReprint({ transaction: row, previousBalance: row.balanceBefore ?? null, newBalance: row.balanceAfter ?? null });
    } catch (failure) {
      const status = apiErrorStatus(failure);
      if (status === 401 && !credentials) return; // the session ended: the app logs out
      setReturnError(
        status === 401 ? t('reports.void.invalidSupervisor') : (apiErrorMessage(failure) ?? t('reports.return.error')),
      );
    }
  }

  // CSV export of every filtered row.
  const [exporting, setExporting] = useState<ExportProgress | null>(null);
  async function exportCsv() {
    if (exporting) return;
    setExporting({ loaded: 0, total: result.data?.total ?? 0 });
    try {
      const rows = await fetchAllTransactions(dispatch, applied, setExporting);
      const sums = await dispatch(reportsApi.endpoints.getTransactionTotals.initiate(applied, { subscribe: false })).unwrap();
      const csv = transactionsCsv(
        rows,
        {
          headers: CSV_COLUMNS.map((column) => t(`reports.csv.${column}`)),
          type: (type: TransactionType) => t(`reports.types.${type}`),
          description: (transaction) => transactionDescription(transaction, t, format.currency),
          format: csvFormat(format.locale),
          totals: {
            title: t('reports.totals.title'),
            labels: Object.fromEntries(TOTAL_FIGURES.map((key) => [key, t(`reports.totals.${key}`)])) as Record<keyof ReportTotals, string>,
          },
        },
        sums,
      );
      downloadCsv(CSV_FILENAME, csv);
    } catch (failure) {
      if (apiErrorStatus(failure) !== 401) {
        const message = apiErrorMessage(failure);
        dispatch(toastShown('error', message ? { message } : { messageKey: 'reports.csv.error' }));
      }
    } finally {
      setExporting(null);
    }
  }

  const total = result.data?.total ?? 0;
  const items = result.data?.items ?? [];

  return (
    <section className="page reports">
      <PageHeader title={t('reports.title')} subtitle={t('reports.subtitle')} />
      <VoidBanner key={banner?.id ?? 0} result={banner} onDone={hideBanner} />
      <ReportFiltersBar
        filters={filters}
        active={anyFilter || search.trim() !== ''}
        onChange={(change) => setView((current) => ({ ...current, filters: { ...current.filters, ...change }, page: 1 }))}
        onClear={() => setView((current) => ({ ...current, filters: EMPTY_FILTERS, page: 1 }))}
        pointsOfSale={posOptions}
        cashiers={cashiers}
      />

      {result.isError && !result.isFetching ? (
        <LoadError message={apiErrorMessage(result.error) ?? t('reports.errorLoading')} onRetry={() => void result.refetch()} />
      ) : null}

      {totals.data ? <ReportTotalsCard totals={totals.data} /> : null}

      <div className={`reports-list ${result.isFetching ? 'reports-list-busy' : ''}`} aria-busy={result.isFetching}>
        {result.isLoading ? (
          <p className="card list-empty" role="status">
            {t('reports.loading')}
          </p>
        ) : result.isError && !result.data ? null : (
          <PagedList<Transaction>
            mode="server"
            title={t('reports.listTitle')}
            items={items}
            total={total}
            totalIsLowerBound={result.data?.totalExact === false}
            state={listState}
            loading={result.isFetching}
            getKey={(tx) => tx.id}
            searchPlaceholder={t('reports.filters.textPlaceholder')}
            emptyText={anyFilter ? t('reports.noResults') : t('reports.noTransactions')}
            noResultsText={t('reports.noResults')}
            headerActions={
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                onClick={() => void exportCsv()}
                disabled={exporting !== null || total === 0}
              >
                <ArrowDownTrayIcon aria-hidden="true" />
                {exporting
                  ? t('reports.csv.exporting', { loaded: exporting.loaded, total: exporting.total })
                  : t('reports.csv.export')}
              </button>
            }
            renderItem={(tx) => <TransactionRow transaction={tx} />}
            renderActions={(tx) => (
              <>
                {canReprint(tx) ? (
                  <RowActionButton
                    Icon={PrinterIcon}
                    text={t('reports.reprint')}
                    label={t('reports.reprintLabel', { id: tx.id })}
                    onClick={() => setReprint({ transaction: tx, previousBalance: tx.balanceBefore ?? null, newBalance: tx.balanceAfter ?? null })}
                  />
                ) : null}
                {user && canReturn(tx, user) ? (
                  <RowActionButton
                    Icon={ArrowUturnLeftIcon}
                    text={t('reports.return.button')}
                    label={t('reports.return.buttonLabel', { id: tx.id })}
                    onClick={() => {
                      setReturnError(null);
                      setReturning(tx);
                    }}
                  />
                ) : null}
                {user && canVoid(tx, user) ? (
                  <RowActionButton
                    Icon={NoSymbolIcon}
                    text={t('reports.void.button')}
                    label={t('reports.void.buttonLabel', { id: tx.id })}
                    className="btn-void"
                    onClick={() => {
                      setVoidError(null);
                      setVoiding(tx);
                    }}
                  />
                ) : null}
              </>
            )}
          />
        )}
      </div>

      {voiding && user ? (
        <VoidDialog
          key={voiding.id}
          transaction={voiding}
          needsSupervisor={voidNeedsSupervisor(user)}
          companyPrefix={user.company?.prefix ?? null}
          submitting={voidState.isLoading}
          error={voidError}
          onCancel={() => setVoiding(null)}
          onConfirm={(credentials) => void confirmVoid(credentials)}
        />
      ) : null}

      {returning && user ? (
        <ReturnDialog
          key={returning.id}
          transaction={returning}
          needsSupervisor={voidNeedsSupervisor(user)}
          companyPrefix={user.company?.prefix ?? null}
          submitting={returnState.isLoading}
          error={returnError}
          onCancel={() => setReturning(null)}
          onConfirm={(input) => void confirmReturn(input)}
        />
      ) : null}

      <ReceiptModal data={reprint} onClose={() => setReprint(null)} />
    </section>
  );
}
