import { MagnifyingGlassIcon, UserCircleIcon, XMarkIcon } from '@heroicons/react/24/outline';
import { useCallback, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { apiErrorMessage, apiErrorStatus } from '../../app/api';
import { useAppSelector } from '../../app/hooks';
import { isNetworkFailure } from '../../app/offline';
import { selectUser } from '../../app/session';
import { findRememberedCustomer, rememberCustomer } from '../../lib/offlineQueue';
import { useLazyGetCustomerByDocumentQuery } from './pointsApi';
import { useFormat } from '../../app/useFormat';
import type { Customer } from '../../lib/types';
import { DocumentField } from '../../components/DocumentField';
import './operations.css';
import { FormError } from '../../components/FormField';
import { EnrollCustomer, useCanEnroll } from './EnrollCustomer';

export interface CustomerLookupState {
  document: string;
  customer: Customer | null;
  error: string | null;
  /** The last search found no customer with the document. */
  notFound: boolean;
  /** Offline: the customer shown is the copy kept on this device (its balance may be old). */
  fromDevice: boolean;
  searching: boolean;
  setDocument: (digits: string) => void;
  search: () => Promise<void>;
  /** Replaces the shown customer (e.g. with the updated balance after a posting). */
  setCustomer: (customer: Customer) => void;
  clear: () => void;
}

/**
 * Finding a customer by exact ID document (docs/screens.md, "The till"): an empty document gives
 * 'dashboard.errorEnterId', an unknown one 'dashboard.errorCustomerNotFound'.
 */
export function useCustomerLookup(): CustomerLookupState {
  const { t } = useTranslation();
  const [trigger, { isFetching }] = useLazyGetCustomerByDocumentQuery();
  const [document, setDocumentState] = useState('');
  const [customer, setCustomerState] = useState<Customer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notFound, setNotFound] = useState(false);
  const [fromDevice, setFromDevice] = useState(false);
  const company = useAppSelector(selectUser)?.company?.prefix ?? '';
  // Only the latest search may show its answer (the document may change while one runs).
  const latest = useRef(0);

  const setDocument = useCallback((digits: string) => {
    latest.current += 1;
    setDocumentState(digits);
    // The customer shown must be the one of the document shown.
    setCustomerState(null);
    setError(null);
    setNotFound(false);
    setFromDevice(false);
  }, []);

  const search = useCallback(async () => {
    const attempt = ++latest.current;
    setError(null);
    setNotFound(false);
    setFromDevice(false);
    setCustomerState(null);
    if (document === '') {
      setError(t('dashboard.errorEnterId'));
      return;
    }
    try {
      const found = await trigger(document).unwrap();
      if (attempt === latest.current) setCustomerState(found);
      // Served here: the offline lookup will know this customer (docs/operations.md, "Offline till").
      void rememberCustomer(company, found);
    } catch (failure) {
      if (attempt !== latest.current) return;
      if (isNetworkFailure(failure)) {
        const kept = await findRememberedCustomer(company, document);
        if (attempt !== latest.current) return;
        if (kept) {
          setCustomerState(kept);
          setFromDevice(true);
        } else setError(t('offline.customerNotKept'));
        return;
      }
      const status = apiErrorStatus(failure);
      if (status === 404) {
        setError(t('dashboard.errorCustomerNotFound'));
        setNotFound(true);
      }
      else if (status !== 401) setError(apiErrorMessage(failure) ?? t('common.errorGeneric'));
    }
  }, [document, trigger, t, company]);

  const clear = useCallback(() => {
    latest.current += 1;
    setDocumentState('');
    setCustomerState(null);
    setError(null);
    setNotFound(false);
    setFromDevice(false);
  }, []);

  /** A customer just added at the till becomes the one shown. */
  const setCustomer = useCallback((found: Customer) => {
    latest.current += 1;
    setCustomerState(found);
    setError(null);
    setNotFound(false);
    setFromDevice(false);
  }, []);

  return useMemo(
    () => ({ document, customer, error, notFound, fromDevice, searching: isFetching, setDocument, search, setCustomer, clear }),
    [document, customer, error, notFound, fromDevice, isFetching, setDocument, search, setCustomer, clear],
  );
}

/** The found customer: name, document and point balance. */
export function CustomerCard({ customer, onClear }: { customer: Customer; onClear?: () => void }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <div className="customer-card" data-testid="customer-card">
      <UserCircleIcon className="customer-card-icon" aria-hidden="true" />
      <div className="customer-card-text">
        <span className="row-title">{customer.name}</span>
        <span className="row-meta">{t('dashboard.lookup.documentValue', { document: format.document(customer.document) })}</span>
        {customer.claimInProgress ? (
          <span className="claim-badge" data-testid="claim-in-progress">
            {t('dataRequests.claimInProgress')}
          </span>
        ) : null}
      </div>
      <div className="customer-card-points">
        <span className="customer-card-points-value" data-testid="customer-points">
          {format.number(customer.points)}
        </span>
        <span className="row-meta">{t('dashboard.lookup.pointsAvailable')}</span>
      </div>
      {onClear ? (
        <button type="button" className="icon-button" onClick={onClear} aria-label={t('dashboard.lookup.changeCustomer')} title={t('dashboard.lookup.changeCustomer')}>
          <XMarkIcon aria-hidden="true" />
        </button>
      ) : null}
    </div>
  );
}

/**
 * The document field with its search button, the lookup's error, and the customer found; when
 * nobody has the document, a user allowed to add customers adds them here and goes on. `label`
 * names its search landmark, apart from any other lookup on the same screen.
 */
export function CustomerLookup({ lookup, label, autoFocus = false }: { lookup: CustomerLookupState; label: string; autoFocus?: boolean }) {
  const { t } = useTranslation();
  const canEnroll = useCanEnroll();

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!lookup.searching) void lookup.search();
  }

  return (
    <div className="customer-lookup">
      <form onSubmit={handleSubmit} noValidate role="search" aria-label={label}>
        <DocumentField
          label={t('dashboard.lookup.document')}
          placeholder={t('dashboard.lookup.documentPlaceholder')}
          value={lookup.document}
          onChange={lookup.setDocument}
          autoFocus={autoFocus}
          maxLength={40}
          action={
            <button type="submit" className="btn btn-secondary" disabled={lookup.searching}>
              <MagnifyingGlassIcon aria-hidden="true" />
              {lookup.searching ? t('dashboard.lookup.searching') : t('common.search')}
            </button>
          }
        />
      </form>
      <FormError message={lookup.error} />
      {lookup.notFound && canEnroll ? <EnrollCustomer document={lookup.document} onEnrolled={lookup.setCustomer} /> : null}
      {lookup.customer ? <CustomerCard customer={lookup.customer} onClear={lookup.clear} /> : null}
      {lookup.customer && lookup.fromDevice ? (
        <p className="row-meta" data-testid="customer-from-device">
          {t('offline.customerFromDevice')}
        </p>
      ) : null}
    </div>
  );
}
