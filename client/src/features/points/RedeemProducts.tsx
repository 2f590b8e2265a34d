import { ListBulletIcon, Squares2X2Icon } from '@heroicons/react/24/outline';
import { useMemo, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { useGetCategoriesQuery } from '../../app/tenantApi';
import { SelectField } from '../../components/FormField';
import { LoadError } from '../../components/LoadError';
import { SearchBox } from '../../components/SearchBox';
import type { TKey } from '../../i18n/keys';
import { byName } from '../../lib/paging';
import type { Category, Customer, Product } from '../../lib/types';
import { ProductPicker, type ProductView } from './ProductPicker';

interface ViewChoice {
  choice: ProductView;
  label: TKey;
  Icon: ComponentType<{ 'aria-hidden'?: boolean | 'true' }>;
}

/** The views the full screen offers, each a toggle button (the quick panel's is always compact). */
const VIEW_CHOICES: readonly ViewChoice[] = [
  { choice: 'grid', label: 'redeem.gridView', Icon: Squares2X2Icon },
  { choice: 'list', label: 'redeem.listView', Icon: ListBulletIcon },
];

interface ProductToolbarProps {
  /** The full screen adds the category filter and the grid or list view. */
  full: boolean;
  search: string;
  onSearch: (search: string) => void;
  categoryId: string;
  onCategory: (categoryId: string) => void;
  view: ProductView;
  onView: (view: ProductView) => void;
  /** No customer yet. */
  disabled: boolean;
}

/** Above the redeemable products: the search, and on the full screen the category and the view. */
export function ProductToolbar({ full, search, onSearch, categoryId, onCategory, view, onView, disabled }: ProductToolbarProps) {
  const { t } = useTranslation();
  const { data: categories } = useGetCategoriesQuery();
  const sortedCategories = useMemo(() => [...(categories ?? [])].sort(byName((c: Category) => c.name)), [categories]);
  return (
    <div className="redeem-products-toolbar">
      {full ? <h2 className="card-title">{t('redeem.productsTitle')}</h2> : null}
      <SearchBox
        label={t('redeem.searchProducts')}
        placeholder={full ? t('redeem.searchPlaceholder') : t('redeem.searchByNamePlaceholder')}
        value={search}
        onChange={onSearch}
        disabled={disabled}
      />
      {full ? (
        <>
          <SelectField
            label={t('redeem.category')}
            value={categoryId}
            onChange={onCategory}
            emptyOption={t('redeem.allCategories')}
            options={sortedCategories.map((category) => ({ value: String(category.id), label: category.name }))}
          />
          <div className="view-toggle" role="group" aria-label={t('redeem.view')}>
            {VIEW_CHOICES.map(({ choice, label, Icon }) => (
              <button
                key={choice}
                type="button"
                className="icon-button"
                aria-pressed={view === choice}
                onClick={() => onView(choice)}
                aria-label={t(label)}
                title={t(label)}
              >
                <Icon aria-hidden="true" />
              </button>
            ))}
          </div>
        </>
      ) : null}
    </div>
  );
}

interface ProductAreaProps {
  customer: Customer | null;
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
  products: Product[];
  searching: boolean;
  selectedId: number | null;
  onToggle: (product: Product) => void;
  view: ProductView;
}

/** The products, or why there are none: no customer yet, loading, failed, nothing redeemable. */
export function ProductArea({ customer, loading, failed, onRetry, products, searching, selectedId, onToggle, view }: ProductAreaProps) {
  const { t } = useTranslation();
  if (!customer) return <p className="list-empty">{t('redeem.findCustomerFirst')}</p>;
  if (loading) {
    return (
      <p className="list-empty" role="status">
        {t('redeem.loadingProducts')}
      </p>
    );
  }
  if (failed) {
    return <LoadError className="list-empty" message={t('redeem.errorLoadingProducts')} onRetry={onRetry} />;
  }
  if (products.length === 0) {
    return <p className="list-empty">{searching ? t('redeem.noProductsMatchSearch') : t('redeem.noProductsAvailable')}</p>;
  }
  return <ProductPicker products={products} selectedId={selectedId} onToggle={onToggle} view={view} label={t('redeem.productsTitle')} />;
}
