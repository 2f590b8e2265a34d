import { useTranslation } from 'react-i18next';
import { useGetCategoriesQuery } from '../../../app/tenantApi';
import { SelectField, TextField } from '../../../components/FormField';
import { byName } from '../../../lib/paging';
import type { Category } from '../../../lib/types';
import { CheckboxField } from '../shared/CheckboxField';
import { TextAreaField } from '../shared/TextAreaField';
import type { ProductFormValues } from './productForm';
import { WholeNumberField } from './WholeNumberField';

export interface ProductFieldsProps {
  values: ProductFormValues;
  onChange: (values: ProductFormValues) => void;
}

/** The product's fields, shared by the add form and the edit modal. */
export function ProductFields({ values, onChange }: ProductFieldsProps) {
  const { t } = useTranslation();
  const { data: categories = [] } = useGetCategoriesQuery();
  const set =
    <K extends keyof ProductFormValues>(key: K) =>
    (value: ProductFormValues[K]) =>
      onChange({ ...values, [key]: value });

  const categoryOptions = [
    { value: '', label: t('products.noCategory') },
    ...[...categories].sort(byName((c: Category) => c.name)).map((c) => ({ value: String(c.id), label: c.name })),
  ];

  return (
    <>
      <TextField label={t('products.fields.code')} name="code" value={values.code} onChange={set('code')} required maxLength={50} autoComplete="off" />
      <TextField label={t('products.fields.name')} name="name" value={values.name} onChange={set('name')} required maxLength={200} />
      <SelectField label={t('products.fields.category')} name="categoryId" value={values.categoryId} onChange={set('categoryId')} options={categoryOptions} />
      <TextAreaField label={t('products.fields.description')} name="description" value={values.description} onChange={set('description')} maxLength={1000} />
      <WholeNumberField label={t('products.fields.price')} name="price" value={values.price} onChange={set('price')} prefix="$" />
      <WholeNumberField label={t('products.fields.pointsValue')} name="pointsValue" value={values.pointsValue} onChange={set('pointsValue')} />
      <TextField label={t('products.fields.imageUrl')} name="imageUrl" type="url" value={values.imageUrl} onChange={set('imageUrl')} maxLength={500} />
      <CheckboxField label={t('products.fields.active')} name="is_active" checked={values.isActive} onChange={set('isActive')} hint={t('products.activeHint')} />
    </>
  );
}
