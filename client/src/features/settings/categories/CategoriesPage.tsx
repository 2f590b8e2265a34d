import { skipToken } from '@reduxjs/toolkit/query/react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGetCategoriesQuery } from '../../../app/tenantApi';
import { CategoryIcon } from '../../../components/CategoryIcon';
import { TextField } from '../../../components/FormField';
import {
  AddFormPanel,
  type Checked,
  DeleteFlowModal,
  EditModal,
  ListScreen,
  PagedList,
  ReactivateOffer,
  USAGE_QUERY_OPTIONS,
  useListReactivation,
  useReactivation,
  useSaveForm,
} from '../../../components/list';
import { PageHeader } from '../../../components/PageHeader';
import { byName, matchesSearch } from '../../../lib/paging';
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
  const [values, setValues] = useState<CategoryInput>(EMPTY_CATEGORY);
  const [createCategory] = useCreateCategoryMutation();
  const [reactivateCategory] = useReactivateCategoryMutation();
  const reset = () => setValues(EMPTY_CATEGORY);
  const reactivation = useReactivation((id) => reactivateCategory(id).unwrap(), 'categories.successReactivated', reset);
  const form = useSaveForm({
    check: () => checkCategory(values),
    save: (body) => createCategory(body).unwrap(),
    success: 'categories.successAdded',
    conflictKey: 'categories.errorExists',
    reactivation,
    onSaved: reset,
  });

  return (
    <AddFormPanel
      title={t('categories.addTitle')}
      submitLabel={t('categories.add')}
      submittingLabel={t('common.adding')}
      {...form}
      notice={<ReactivateOffer reactivation={reactivation} text={t('categories.inactiveOffer')} />}
    >
      <CategoryFields values={values} onChange={setValues} />
    </AddFormPanel>
  );
}

function EditCategoryModal({ category, onClose }: { category: Category; onClose: () => void }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<CategoryInput>({ name: category.name, icon: category.icon });
  const [updateCategory] = useUpdateCategoryMutation();
  const form = useSaveForm({
    check: () => checkCategory(values),
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
  const [showInactive, setShowInactive] = useState(false);
  const active = useGetCategoriesQuery();
  const inactive = useGetInactiveCategoriesQuery(showInactive ? undefined : skipToken);
  const { data, isLoading } = showInactive ? inactive : active;
  const [reactivateCategory] = useReactivateCategoryMutation();
  const reactivation = useListReactivation<Category>((id) => reactivateCategory(id).unwrap(), 'categories.successReactivated');
  const categories = useMemo(() => [...(data ?? [])].sort(byName((c: Category) => c.name)), [data]);
  const [editing, setEditing] = useState<Category | null>(null);
  const [deleting, setDeleting] = useState<Category | null>(null);
  const usage = useGetCategoryUsageQuery(deleting?.id ?? skipToken, USAGE_QUERY_OPTIONS);
  const [deleteCategory] = useDeleteCategoryMutation();

  return (
    <section className="page">
      <PageHeader title={t('categories.title')} subtitle={t('categories.subtitle')} />
      <ListScreen
        form={<AddCategoryForm />}
        list={
          <PagedList<Category>
            title={t('categories.listTitle')}
            items={categories}
            filter={filterCategory}
            getKey={(category) => category.id}
            itemLabel={(category) => category.name}
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
            onEdit={setEditing}
            onDelete={setDeleting}
            inactive={{ shown: showInactive, onShownChange: setShowInactive, ...reactivation }}
          />
        }
      />
      {editing ? <EditCategoryModal key={editing.id} category={editing} onClose={() => setEditing(null)} /> : null}
      <DeleteFlowModal
        record={deleting}
        name={deleting?.name ?? ''}
        usage={usage}
        hasRelated={(u) => u.products > 0}
        remove={(id) => deleteCategory(id).unwrap()}
        texts={{ soft: 'categories.deleteSoft', hard: 'categories.deleteHard', deleted: 'categories.successDeleted' }}
        onClose={() => setDeleting(null)}
      />
    </section>
  );
}
