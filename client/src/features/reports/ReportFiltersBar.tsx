import { XMarkIcon } from '@heroicons/react/24/outline';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldLabel, SelectField } from '../../components/FormField';
import { isSystemCashier } from '../../lib/ledger';
import { TRANSACTION_TYPES } from '../../lib/reportUrl';
import type { ReportFilters } from './reportsApi';

type BarFilters = Omit<ReportFilters, 'text'>;

export interface ReportFiltersBarProps {
  filters: BarFilters;
  onChange: (change: Partial<BarFilters>) => void;
  /** Whether any filter, the customer text included, is set. */
  active: boolean;
  onClear: () => void;
  pointsOfSale: readonly { id: number; name: string }[];
  cashiers: readonly string[];
}

interface DateFilterProps {
  label: string;
  value: string;
  min?: string;
  max?: string;
  onChange: (value: string) => void;
}

/** A labelled date input; `min` and `max` keep the period's ends in order. */
function DateFilter({ label, value, min, max, onChange }: DateFilterProps) {
  const id = useId();
  return (
    <div className="field">
      <FieldLabel htmlFor={id} label={label} />
      <input id={id} className="input" type="date" value={value} min={min} max={max} onChange={(event) => onChange(event.target.value)} />
    </div>
  );
}

/** A filter a link set (a customer, an invoice reference), shown with a button to remove it. */
function LinkedFilter({ text, removeLabel, onRemove }: { text: string; removeLabel: string; onRemove: () => void }) {
  return (
    <span className="chip report-linked-filter">
      {text}
      <button type="button" aria-label={removeLabel} onClick={onRemove}>
        <XMarkIcon aria-hidden="true" />
      </button>
    </span>
  );
}

/**
 * Type, point of sale, cashier and date range (the customer text is the list's search box); the
 * customer and invoice reference a link set show as removable chips.
 */
export function ReportFiltersBar({ filters, onChange, active, onClear, pointsOfSale, cashiers }: ReportFiltersBarProps) {
  const { t } = useTranslation();
  return (
    <section className="card report-filters" aria-label={t('reports.filters.title')}>
      <SelectField
        label={t('reports.filters.type')}
        value={filters.type}
        onChange={(type) => onChange({ type: type as BarFilters['type'] })}
        emptyOption={t('reports.filters.allTypes')}
        options={TRANSACTION_TYPES.map((type) => ({ value: type, label: t(`reports.types.${type}`) }))}
      />
      <SelectField
        label={t('reports.filters.pos')}
        value={filters.posId}
        onChange={(posId) => onChange({ posId })}
        emptyOption={t('reports.filters.allPos')}
        options={pointsOfSale.map((pos) => ({ value: String(pos.id), label: pos.name }))}
      />
      <SelectField
        label={t('reports.filters.cashier')}
        value={filters.cashier}
        onChange={(cashier) => onChange({ cashier })}
        emptyOption={t('reports.filters.allCashiers')}
        options={cashiers.map((cashier) => ({ value: cashier, label: isSystemCashier(cashier) ? t('common.system') : cashier }))}
      />
      <DateFilter
        label={t('reports.filters.from')}
        value={filters.from}
        max={filters.to || undefined}
        onChange={(from) => onChange({ from })}
      />
      <DateFilter label={t('reports.filters.to')} value={filters.to} min={filters.from || undefined} onChange={(to) => onChange({ to })} />
      {filters.customerId || filters.invoiceReference ? (
        <div className="report-linked-filters" data-testid="linked-filters">
          {filters.customerId ? (
            <LinkedFilter
              text={t('reports.filters.customer', { id: filters.customerId })}
              removeLabel={t('reports.filters.removeCustomer')}
              onRemove={() => onChange({ customerId: '' })}
            />
          ) : null}
          {filters.invoiceReference ? (
            <LinkedFilter
              text={t('reports.filters.invoiceReference', { reference: filters.invoiceReference })}
              removeLabel={t('reports.filters.removeInvoiceReference')}
              onRemove={() => onChange({ invoiceReference: '' })}
            />
          ) : null}
        </div>
      ) : null}
      <div className="report-filters-actions">
        <button type="button" className="btn btn-secondary" onClick={onClear} disabled={!active}>
          <XMarkIcon aria-hidden="true" />
          {t('reports.filters.clear')}
        </button>
      </div>
    </section>
  );
}
