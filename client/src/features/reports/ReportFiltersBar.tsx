import { XMarkIcon } from '@heroicons/react/24/outline';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldLabel, SelectField } from '../../components/FormField';
import type { TransactionType } from '../../lib/types';
import { isSystemCashier } from '../../lib/ledger';
import type { ReportFilters } from './reportsApi';

const TYPES: readonly TransactionType[] = ['accreditation', 'redemption', 'expiration', 'cancellation'];

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

/** Type, point of sale, cashier and date range (the customer text is the list's search box). */
export function ReportFiltersBar({ filters, onChange, active, onClear, pointsOfSale, cashiers }: ReportFiltersBarProps) {
  const { t } = useTranslation();
  const fromId = useId();
  const toId = useId();
  return (
    <section className="card report-filters" aria-label={t('reports.filters.title')}>
      <SelectField
        label={t('reports.filters.type')}
        value={filters.type}
        onChange={(type) => onChange({ type: type as BarFilters['type'] })}
        options={[{ value: '', label: t('reports.filters.allTypes') }, ...TYPES.map((type) => ({ value: type, label: t(`reports.types.${type}`) }))]}
      />
      <SelectField
        label={t('reports.filters.pos')}
        value={filters.posId}
        onChange={(posId) => onChange({ posId })}
        options={[
          { value: '', label: t('reports.filters.allPos') },
          ...pointsOfSale.map((pos) => ({ value: String(pos.id), label: pos.name })),
        ]}
      />
      <SelectField
        label={t('reports.filters.cashier')}
        value={filters.cashier}
        onChange={(cashier) => onChange({ cashier })}
        options={[
          { value: '', label: t('reports.filters.allCashiers') },
          ...cashiers.map((cashier) => ({ value: cashier, label: isSystemCashier(cashier) ? t('common.system') : cashier })),
        ]}
      />
      <div className="field">
        <FieldLabel htmlFor={fromId} label={t('reports.filters.from')} />
        <input
          id={fromId}
          className="input"
          type="date"
          value={filters.from}
          max={filters.to || undefined}
          onChange={(event) => onChange({ from: event.target.value })}
        />
      </div>
      <div className="field">
        <FieldLabel htmlFor={toId} label={t('reports.filters.to')} />
        <input
          id={toId}
          className="input"
          type="date"
          value={filters.to}
          min={filters.from || undefined}
          onChange={(event) => onChange({ to: event.target.value })}
        />
      </div>
      <div className="report-filters-actions">
        <button type="button" className="btn btn-secondary" onClick={onClear} disabled={!active}>
          <XMarkIcon aria-hidden="true" />
          {t('reports.filters.clear')}
        </button>
      </div>
    </section>
  );
}
