import { PhotoIcon } from '@heroicons/react/24/outline';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../../../app/hooks';
import { useGetRedeemableProductsQuery } from '../../points';
import { selectUser } from '../../../app/session';
import { useFormat } from '../../../app/useFormat';
import {
  AddFormPanel,
  EditModal,
  ListScreen,
  PagedList,
  RecordDialogs,
  USAGE_QUERY_OPTIONS,
  useAddForm,
  useEditForm,
  useRecordList,
} from '../../../components/list';
import { byName, matchesSearch } from '../../../lib/paging';
import type { Product } from '../../../lib/types';
import { checkProduct, EMPTY_PRODUCT, productFormValues } from './productForm';
import { ProductFields } from './ProductFields';
import {
  useCreateProductMutation,
  useDeleteProductMutation,
  useGetAllProductsQuery,
  useGetProductUsageQuery,
  useReactivateProductMutation,
  useUpdateProductMutation,
} from './productsApi';

const productName = (product: Product) => product.name;
const filterProduct = (product: Product, search: string) => matchesSearch(search, product.name, product.code);

/** The product's image, or a placeholder when it has none or it fails to load. */
function ProductImage({ product }: { product: Product }) {
  const { t } = useTranslation();
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const url = product.imageUrl?.trim();
  if (url && failedUrl !== url) {
    return <img className="product-thumb" src={url} alt={product.name} loading="lazy" onError={() => setFailedUrl(url)} />;
  }
  return (
    <span className="product-thumb product-thumb-placeholder" role="img" aria-label={t('products.noImage')}>
      <PhotoIcon aria-hidden="true" />
    </span>
  );
}

function AddProductForm() {
  const { t } = useTranslation();
  const [createProduct] = useCreateProductMutation();
  const [reactivateProduct] = useReactivateProductMutation();
  const { values, setValues, panel } = useAddForm({
    empty: EMPTY_PRODUCT,
    check: checkProduct,
    create: (body) => createProduct(body).unwrap(),
    reactivate: (id) => reactivateProduct(id).unwrap(),
    texts: {
      added: 'products.successAdded',
      reactivated: 'products.successReactivated',
      conflict: 'products.errorExists',
      inactiveOffer: 'products.inactiveOffer',
    },
  });

  return (
    <AddFormPanel title={t('products.addTitle')} submitLabel={t('products.add')} {...panel}>
      <ProductFields values={values} onChange={setValues} />
    </AddFormPanel>
  );
}

function EditProductModal({ product, onClose }: { product: Product; onClose: () => void }) {
  const { t } = useTranslation();
  const [updateProduct] = useUpdateProductMutation();
  const { values, setValues, form } = useEditForm({
    initial: () => productFormValues(product),
    check: checkProduct,
    save: (body) => updateProduct({ id: product.id, ...body }).unwrap(),
    success: 'products.successUpdated',
    conflictKey: 'products.errorExists',
    onSaved: onClose,
  });

  return (
    <EditModal open title={t('products.editTitle')} onCancel={onClose} {...form}>
      <ProductFields values={values} onChange={setValues} />
    </EditModal>
  );
}

/**
 * /settings/products: the active products, and behind the 'show inactive' filter the inactive ones,
 * for admin and supervisor; a cajero holding the permission may only read the active ones
 * (GET /api/products/all is not theirs).
 */
export function ProductsPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const me = useAppSelector(selectUser);
  const readsAll = me?.role === 'admin' || me?.role === 'supervisor';
  const all = useGetAllProductsQuery(undefined, { skip: !readsAll });
  const active = useGetRedeemableProductsQuery(undefined, { skip: readsAll });
  const { data, isLoading, isError } = readsAll ? all : active;
  const [reactivateProduct] = useReactivateProductMutation();
  const [deleteProduct] = useDeleteProductMutation();
  const records = useRecordList<Product>({
    reactivate: (id) => reactivateProduct(id).unwrap(),
    reactivated: 'products.successReactivated',
    remove: (id) => deleteProduct(id).unwrap(),
    nameOf: productName,
  });
  const { showInactive } = records;
  const products = useMemo(
    () => (data ?? []).filter((p) => p.is_active !== showInactive).sort(byName(productName)),
    [data, showInactive],
  );
  const usage = useGetProductUsageQuery(records.usageArg, USAGE_QUERY_OPTIONS);

  return (
    <ListScreen
      title={t('products.title')}
      subtitle={t('products.subtitle')}
      form={<AddProductForm />}
      list={
        <PagedList<Product>
          {...records.rows}
          title={t('products.listTitle')}
          items={products}
          filter={filterProduct}
          searchPlaceholder={t('products.searchPlaceholder')}
          emptyText={isLoading ? t('common.loading') : isError ? t('products.errorLoading') : t('products.empty')}
          noResultsText={t('products.noResults')}
          renderItem={(product) => (
            <div className={`entity-row ${product.is_active ? '' : 'entity-row-inactive'}`}>
              <ProductImage product={product} />
              <div className="entity-row-text">
                <span className="row-title">{product.name}</span>
                <span className="row-meta">
                  {[t('products.codeValue', { code: product.code }), product.categoryName ?? t('products.noCategory')].join(' · ')}
                </span>
                <span className="row-meta">
                  {format.currency(product.price)}
                  {' · '}
                  {t('products.pointsValueText', { points: format.number(product.pointsValue) })}
                </span>
              </div>
              <span className={`badge ${product.is_active ? 'tone-success' : 'badge-muted'}`}>
                {product.is_active ? t('common.active') : t('common.inactive')}
              </span>
            </div>
          )}
          inactive={readsAll ? records.rows.inactive : undefined}
        />
      }
    >
      <RecordDialogs
        records={records}
        renderEdit={(product, onClose) => <EditProductModal product={product} onClose={onClose} />}
        usage={usage}
        hasRelated={(u) => u.transactions > 0}
        texts={{ soft: 'products.deleteSoft', hard: 'products.deleteHard', deleted: 'products.successDeleted' }}
      />
    </ListScreen>
  );
}
