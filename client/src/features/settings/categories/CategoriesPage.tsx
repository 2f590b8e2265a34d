import { skipToken } from '@reduxjs/toolkit/query/react';
import { useTranslation } from 'react-i18next';
import { useGetCategoriesQuery } from '../../../app/tenantApi';
import { CategoryIcon } from '../../../components/CategoryIcon';
import { TextField } from '../../../components/FormField';
import {
  AddFormPanel,
  type Checked,
  EditModal,
  ListScreen,
  PagedList,
  RecordDialogs,
  USAGE_QUERY_OPTIONS,
  useAddForm,
  useEditForm,
  useRecordList,
  useShownRecords,
} from '../../../components/list';
import { matchesSearch } from '../../../lib/paging';
import type { Category } from '../../../lib/types';
import {
  useCreateCategoryMutation,
  useDeleteCategoryMutation,
  useGetCategoryUsageQuery,
  useGetInactiveCategoriesQuery,
  useReactivateCategoryMutation,
  useUpdateCategoryMutation,
  type CategoryInput,
} from './categoriesApi';
import { IconField } from './IconPicker';

const categoryName = (category: Category) => category.name;
const filterCategory = (category: Category, search: string) => matchesSearch(search, category.name);

const EMPTY_CATEGORY: CategoryInput = { name: '', icon: '' };

/** Name and icon are both required (docs/decisions.md, "A category"). */
function checkCategory(values: CategoryInput): Checked<CategoryInput> {
  const name = values.name.trim();
  return name && values.icon ? { ok: true, body: { name, icon: values.icon } } : { ok: false, error: 'categories.errorRequired' };
}

function CategoryFields({ values, onChange }: { values: CategoryInput; onChange: (values: CategoryInput) => void }) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        label={t('categories.fields.name')}
        name="name"
        value={values.name}
        onChange={(name) => onChange({ ...values, name })}
        required
        maxLength={100}
      />
      <IconField label={t('categories.fields.icon')} value={values.icon} onChange={(icon) => onChange({ ...values, icon })} />
    </>
  );
}

function AddCategoryForm() {
  const { t } = useTranslation();
  const [createCategory] = useCreateCategoryMutation();
  const [reactivateCategory] = useReactivateCategoryMutation();
  const { values, setValues, panel } = useAddForm({
    empty: EMPTY_CATEGORY,
    check: checkCategory,
    create: (body) => createCategory(body).unwrap(),
    reactivate: (id) => reactivateCategory(id).unwrap(),
    texts: {
      added: 'categories.successAdded',
      reactivated: 'categories.successReactivated',
      conflict: 'categories.errorExists',
      inactiveOffer: 'categories.inactiveOffer',
    },
  });

  return (
    <AddFormPanel title={t('categories.addTitle')} submitLabel={t('categories.add')} {...panel}>
      <CategoryFields values={values} onChange={setValues} />
    </AddFormPanel>
  );
}

function EditCategoryModal({ category, onClose }: { category: Category; onClose: () => void }) {
  const { t } = useTranslation();
  const [updateCategory] = useUpdateCategoryMutation();
  const { values, setValues, form } = useEditForm({
    initial: { name: category.name, icon: category.icon },
    check: checkCategory,
    save: (body) => updateCategory({ id: category.id, ...body }).unwrap(),
    success: 'categories.successUpdated',
    conflictKey: 'categories.errorExists',
    onSaved: onClose,
  });

  return (
    <EditModal open title={t('categories.editTitle')} onCancel={onClose} {...form}>
      <CategoryFields values={values} onChange={setValues} />
    </EditModal>
  );
}

/** /settings/categories: name and icon (searchable picker; unknown icons show Star). */
export function CategoriesPage() {
  const { t } = useTranslation();
  const [reactivateCategory] = useReactivateCategoryMutation();
  const [deleteCategory] = useDeleteCategoryMutation();
  const records = useRecordList<Category>({
    reactivate: (id) => reactivateCategory(id).unwrap(),
    reactivated: 'categories.successReactivated',
    remove: (id) => deleteCategory(id).unwrap(),
    nameOf: categoryName,
  });
  const active = useGetCategoriesQuery();
  const inactive = useGetInactiveCategoriesQuery(records.showInactive ? undefined : skipToken);
  const { items: categories, isLoading } = useShownRecords(records.showInactive, active, inactive, categoryName);
  const usage = useGetCategoryUsageQuery(records.usageArg, USAGE_QUERY_OPTIONS);

  return (
    <ListScreen
      title={t('categories.title')}
      subtitle={t('categories.subtitle')}
      form={<AddCategoryForm />}
      list={
        <PagedList<Category>
          {...records.rows}
          title={t('categories.listTitle')}
          items={categories}
          filter={filterCategory}
          searchPlaceholder={t('categories.searchPlaceholder')}
          emptyText={isLoading ? t('common.loading') : t('categories.empty')}
          noResultsText={t('categories.noResults')}
          renderItem={(category) => (
            <div className="entity-row">
              <span className="avatar">
                <CategoryIcon name={category.icon} />
              </span>
              <div className="entity-row-text">
                <span className="row-title">{category.name}</span>
                <span className="row-meta">{t('settings.idValue', { id: category.id })}</span>
              </div>
            </div>
          )}
        />
      }
    >
      <RecordDialogs
        records={records}
        renderEdit={(category, onClose) => <EditCategoryModal category={category} onClose={onClose} />}
        usage={usage}
        hasRelated={(u) => u.products > 0}
        texts={{ soft: 'categories.deleteSoft', hard: 'categories.deleteHard', deleted: 'categories.successDeleted' }}
      />
    </ListScreen>
  );
}
