import { skipToken } from '@reduxjs/toolkit/query/react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGetCategoriesQuery } from '../../../app/tenantApi';
import { CategoryIcon } from '../../../components/CategoryIcon';
import { TextField } from '../../../components/FormField';
import { AddFormPanel, DeleteConfirmModal, EditModal, ListScreen, PagedList } from '../../../components/list';
import { PageHeader } from '../../../components/PageHeader';
import { byName, matchesSearch } from '../../../lib/paging';
import type { Category } from '../../../lib/types';
import { useFeedback } from '../../../app/feedback';
import { ReactivateOffer, useListReactivation, useReactivation } from '../../../components/list/reactivation';
import { useUsageCheck } from '../../../components/list/useUsageCheck';
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

/** Name and icon are both required (SPEC.md section 5). */
function checkCategory(values: CategoryInput): CategoryInput | null {
  const name = values.name.trim();
  return name && values.icon ? { name, icon: values.icon } : null;
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
  const feedback = useFeedback();
  const [values, setValues] = useState<CategoryInput>(EMPTY_CATEGORY);
  const [error, setError] = useState<string | null>(null);
  const [createCategory, { isLoading }] = useCreateCategoryMutation();
  const [reactivateCategory] = useReactivateCategoryMutation();
  const reactivation = useReactivation((id) => reactivateCategory(id).unwrap(), 'categories.successReactivated', () =>
    setValues(EMPTY_CATEGORY),
  );

  async function submit() {
    reactivation.clear();
    const body = checkCategory(values);
    if (!body) {
      setError(t('categories.errorRequired'));
      return;
    }
    setError(null);
    try {
      await createCategory(body).unwrap();
      setValues(EMPTY_CATEGORY);
      feedback.success('categories.successAdded');
    } catch (failure) {
      if (!reactivation.caught(failure)) setError(feedback.errorText(failure, 'categories.errorExists'));
    }
  }

  return (
    <AddFormPanel
      title={t('categories.addTitle')}
      submitLabel={t('categories.add')}
      submittingLabel={t('common.adding')}
      submitting={isLoading}
      error={error}
      notice={<ReactivateOffer reactivation={reactivation} text={t('categories.inactiveOffer')} />}
      onSubmit={() => void submit()}
    >
      <CategoryFields values={values} onChange={setValues} />
    </AddFormPanel>
  );
}

function EditCategoryModal({ category, onClose }: { category: Category; onClose: () => void }) {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const [values, setValues] = useState<CategoryInput>({ name: category.name, icon: category.icon });
  const [error, setError] = useState<string | null>(null);
  const [updateCategory, { isLoading }] = useUpdateCategoryMutation();

  async function submit() {
    const body = checkCategory(values);
    if (!body) {
      setError(t('categories.errorRequired'));
      return;
    }
    setError(null);
    try {
      await updateCategory({ id: category.id, ...body }).unwrap();
      feedback.success('categories.successUpdated');
      onClose();
    } catch (failure) {
      setError(feedback.errorText(failure, 'categories.errorExists'));
    }
  }

  return (
    <EditModal open title={t('categories.editTitle')} onCancel={onClose} onSubmit={() => void submit()} submitting={isLoading} error={error}>
      <CategoryFields values={values} onChange={setValues} />
    </EditModal>
  );
}

function DeleteCategoryModal({ category, onClose }: { category: Category | null; onClose: () => void }) {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const usage = useGetCategoryUsageQuery(category?.id ?? skipToken, { refetchOnMountOrArgChange: true });
  const check = useUsageCheck(usage, (u) => u.products > 0);
  const [deleteCategory, { isLoading }] = useDeleteCategoryMutation();
  const name = category?.name ?? '';

  async function confirm() {
    if (!category) return;
    try {
      await deleteCategory(category.id).unwrap();
      feedback.success('categories.successDeleted');
    } catch (failure) {
      feedback.failure(failure);
    } finally {
      onClose();
    }
  }

  return (
    <DeleteConfirmModal
      open={category !== null}
      name={name}
      soft={check.soft}
      checking={check.checking}
      message={check.message}
      softText={t('categories.deleteSoft', { name })}
      hardText={t('categories.deleteHard', { name })}
      deleting={isLoading}
      onCancel={onClose}
      onConfirm={() => void confirm()}
    />
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
      <DeleteCategoryModal category={deleting} onClose={() => setDeleting(null)} />
    </section>
  );
}
