import { GiftIcon } from '@heroicons/react/24/outline';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { apiErrorMessage, apiErrorStatus } from '../../app/api';
import { useAppSelector } from '../../app/hooks';
import { isNetworkFailure, selectOnline } from '../../app/offline';
import { useGetRedeemableProductsQuery, useRedeemPointsMutation } from './pointsApi';
import { useGetSettingsQuery } from '../../app/tenantApi';
import { useFormat } from '../../app/useFormat';
import { useIdempotentSubmit } from '../../lib/idempotency';
import {
  canSubmitRedeem,
  equivalentValue,
  MAX_PRODUCTS_WITHOUT_SEARCH,
  parsePoints,
  redeemableProducts,
  validateRedeemPoints,
} from './points';
import type { Product } from '../../lib/types';
import { FormError, TextField } from '../../components/FormField';
import { ReceiptModal } from '../../components/receipt/ReceiptModal';
import type { ReceiptData } from '../../components/receipt/Receipt';
import { CustomerLookup, useCustomerLookup } from './CustomerLookup';
import { InvoiceReferenceField } from './InvoiceReferenceField';
import type { ProductView } from './ProductPicker';
import { ProductArea, ProductToolbar } from './RedeemProducts';

export interface RedeemFormProps {
  /**
   * 'full' (/redimir): category filter, search by name and description, at most 10 products
   * without search text, grid or list view, description field.
   * 'quick' (dashboard): search by name over all matches, submit disabled until valid.
   */
  variant: 'full' | 'quick';
}

/** Redeem flow (docs/screens.md, "The till"): find, pick a product or type points, redeem, receipt. */
export function RedeemForm({ variant }: RedeemFormProps) {
  const full = variant === 'full';
  const { t } = useTranslation();
  const format = useFormat();
  const lookup = useCustomerLookup();
  const customer = lookup.customer;
  const products = useGetRedeemableProductsQuery();
  const { data: settings } = useGetSettingsQuery();
  const [redeem, { isLoading }] = useRedeemPointsMutation();
  const submitOnce = useIdempotentSubmit();
  const online = useAppSelector(selectOnline);

  const [categoryId, setCategoryId] = useState('');
  const [search, setSearch] = useState('');
  const [view, setView] = useState<ProductView>(full ? 'grid' : 'compact');
  const [selected, setSelected] = useState<Product | null>(null);
  const [pointsText, setPointsText] = useState('');
  const [description, setDescription] = useState('');
  const [reference, setReference] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [receipt, setReceipt] = useState<ReceiptData | null>(null);

  const balance = customer?.points ?? 0;
  const points = selected ? selected.pointsValue : parsePoints(pointsText);
  const filterCategory = full && categoryId !== '' ? Number(categoryId) : null;
  const matching = useMemo(
    () =>
      customer
        ? redeemableProducts(products.data ?? [], customer.points, { categoryId: filterCategory, search, searchDescription: full })
        : [],
    [customer, products.data, filterCategory, search, full],
  );
  // The full screen shows the 10 most valuable until the cashier searches; quick shows all.
  const shown = full && search.trim() === '' ? matching.slice(0, MAX_PRODUCTS_WITHOUT_SEARCH) : matching;
  const value = equivalentValue(selected, Number.isNaN(points) ? 0 : points, settings?.redemptionRate ?? 0);

  function resetForm(options: { keepCustomer: boolean }) {
    setSelected(null);
    setPointsText('');
    setDescription('');
    setReference('');
    setSearch('');
    setError(null);
    if (!options.keepCustomer) lookup.clear();
  }

  function toggleProduct(product: Product) {
    setError(null);
    setSelected((current) => (current?.id === product.id ? null : product));
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    // A redemption needs the balance on the server: never kept for later (docs/operations.md, "Offline till").
    if (!online) {
      setError(t('offline.redeemRefused'));
      return;
    }
    if (!customer) {
      setError(t('dashboard.errorEnterId'));
      return;
    }
    const invalid = selected ? (selected.pointsValue > balance ? 'redeem.errorNotEnoughPoints' : null) : validateRedeemPoints(points, balance);
    if (invalid) {
      setError(t(invalid));
      return;
    }
    setError(null);
    const request = {
      customerId: customer.id,
      pointsToRedeem: points,
      // Only what the cashier wrote: the product and the points speak for themselves.
      description: selected ? '' : description.trim(),
      invoiceReference: reference.trim(),
      productId: selected?.id ?? null,
    };
    try {
      const outcome = await submitOnce(JSON.stringify(request), (idempotencyKey) => redeem({ ...request, idempotencyKey }).unwrap());
      if (!outcome.ran) return;
      const { updatedCustomer, newTransaction } = outcome.result;
      lookup.setCustomer(updatedCustomer);
      setReceipt({
        transaction: {
          ...newTransaction,
          customerName: newTransaction.customerName || updatedCustomer.name,
          customerDocument: newTransaction.customerDocument || updatedCustomer.document,
        },
        previousBalance: customer.points,
        newBalance: updatedCustomer.points,
      });
    } catch (failure) {
      if (apiErrorStatus(failure) === 401) return;
      setError(isNetworkFailure(failure) ? t('offline.redeemRefused') : (apiErrorMessage(failure) ?? t('redeem.errorGeneric')));
      // The product may have changed (points value, inactive): show the current catalogue.
      if (selected) void products.refetch();
    }
  }

  const submitDisabled = !customer || isLoading || (!full && !canSubmitRedeem(selected, points, balance));

  return (
    <div className={`operation redeem-form redeem-form-${variant}`}>
      <div className="redeem-lookup">
        <CustomerLookup
          label={t('dashboard.lookup.forRedeem')}
          lookup={{
            ...lookup,
            setDocument: (digits) => {
              resetForm({ keepCustomer: true });
              lookup.setDocument(digits);
            },
            clear: () => resetForm({ keepCustomer: false }),
          }}
          autoFocus={full}
        />
      </div>
      <section className="redeem-products" aria-label={t('redeem.productsTitle')}>
        <ProductToolbar
          full={full}
          search={search}
          onSearch={setSearch}
          categoryId={categoryId}
          onCategory={setCategoryId}
          view={view}
          onView={setView}
          disabled={!customer}
        />
        <ProductArea
          customer={customer}
          loading={products.isLoading}
          failed={products.isError}
          onRetry={() => void products.refetch()}
          products={shown}
          searching={search.trim() !== ''}
          selectedId={selected?.id ?? null}
          onToggle={toggleProduct}
          view={view}
        />
        {customer && matching.length > shown.length ? (
          <p className="field-hint">{t('redeem.showingTop', { shown: shown.length, total: matching.length })}</p>
        ) : null}
      </section>

      <form className="form-fields redeem-fields" onSubmit={(event) => void handleSubmit(event)} noValidate aria-label={t('redeem.formLabel')}>
        <div className="form-grid">
          <TextField
            label={t('redeem.points')}
            type="number"
            inputMode="numeric"
            min={1}
            max={Math.max(1, balance)}
            step={1}
            value={selected ? String(selected.pointsValue) : pointsText}
            onChange={(text) => {
              setError(null);
              setPointsText(text.replace(/[^\d]/g, ''));
            }}
            disabled={!customer || selected !== null}
            hint={
              selected
                ? t('redeem.lockedByProduct')
                : customer
                  ? balance >= 1
                    ? t('redeem.pointsHint', { max: format.number(balance) })
                    : t('redeem.noPointsHint')
                  : undefined
            }
          />
          <div className="field equivalent-value">
            <span className="field-label">{t('redeem.equivalentValue')}</span>
            <output className="equivalent-value-amount" data-testid="equivalent-value">
              {format.currency(value)}
            </output>
          </div>
        </div>
        {full ? (
          <TextField
            label={t('redeem.description')}
            value={selected ? selected.name : description}
            onChange={setDescription}
            placeholder={t('redeem.descriptionPlaceholder')}
            disabled={!customer || selected !== null}
            maxLength={200}
          />
        ) : null}
        <InvoiceReferenceField label={t('redeem.invoiceReference')} value={reference} onChange={setReference} disabled={!customer} />
        <FormError message={error} />
        <button type="submit" className="btn btn-primary btn-block" disabled={submitDisabled}>
          <GiftIcon aria-hidden="true" />
          {isLoading ? t('redeem.submitting') : t('redeem.submit')}
        </button>
      </form>


      <ReceiptModal data={receipt} closeLabel={t('common.close')} onClose={() => {
        setReceipt(null);
        resetForm({ keepCustomer: false });
      }} />
    </div>
  );
}
