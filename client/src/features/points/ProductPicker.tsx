import { CheckCircleIcon, GiftIcon } from '@heroicons/react/24/outline';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../app/useFormat';
import type { Product } from '../../lib/types';

export type ProductView = 'grid' | 'list' | 'compact';

function ProductImage({ product }: { product: Product }) {
  const [broken, setBroken] = useState(false);
  if (product.imageUrl && !broken) {
    return <img className="product-image" src={product.imageUrl} alt="" loading="lazy" onError={() => setBroken(true)} />;
  }
  return (
    <span className="product-image product-image-placeholder" aria-hidden="true">
      <GiftIcon />
    </span>
  );
}

export interface ProductPickerProps {
  products: readonly Product[];
  selectedId: number | null;
  /** Selecting the selected product again clears the selection. */
  onToggle: (product: Product) => void;
  view: ProductView;
  label: string;
}

/** Redeemable products as toggle buttons: a grid of up to 10 columns, a list, or a compact list. */
export function ProductPicker({ products, selectedId, onToggle, view, label }: ProductPickerProps) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <ul className={`product-picker product-picker-${view}`} aria-label={label}>
      {products.map((product) => {
        const selected = product.id === selectedId;
        return (
          <li key={product.id}>
            <button
              type="button"
              className={`product-option ${selected ? 'product-option-selected' : ''}`}
              aria-pressed={selected}
              onClick={() => onToggle(product)}
            >
              {view !== 'compact' ? <ProductImage product={product} /> : null}
              <span className="product-text">
                <span className="product-name">{product.name}</span>
                {view === 'list' && product.description ? <span className="product-description">{product.description}</span> : null}
                {view !== 'compact' && product.categoryName ? <span className="product-category">{product.categoryName}</span> : null}
              </span>
              <span className="product-figures">
                <span className="product-points">{t('redeem.productPoints', { points: format.number(product.pointsValue) })}</span>
                <span className="product-price">{format.currency(product.price)}</span>
              </span>
              {selected ? <CheckCircleIcon className="product-check" aria-hidden="true" /> : null}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
