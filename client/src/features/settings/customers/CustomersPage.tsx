import { skipToken } from '@reduxjs/toolkit/query/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../../app/useFormat';
import { AddFormPanel, DeleteConfirmModal, EditModal, ListScreen, PagedList, useListState } from '../../../components/list';
import { PageHeader } from '../../../components/PageHeader';
import type { Customer } from '../../../lib/types';
import { useFeedback } from '../../../app/feedback';
import { RowMenu } from '../shared/RowMenu';
import { useDebouncedValue } from '../../../lib/useDebouncedValue';
import { ReactivateOffer, useListReactivation, useReactivation } from '../../../components/list/reactivation';
import { useUsageCheck } from '../../../components/list/useUsageCheck';
import { checkCustomer, customerFormValues, EMPTY_CUSTOMER, type CustomerFormValues } from './customerForm';
import { CustomerFields } from './CustomerFields';
import {
  useCreateCustomerMutation,
  useDeleteCustomerMutation,
  useGetCustomerUsageQuery,
  useReactivateCustomerMutation,
  useSearchCustomersQuery,
  useUpdateCustomerMutation,
} from './customersApi';

/** How long the search text must rest before the server is asked. */
const SEARCH_DELAY_MS = 300;

function initial(name: string): string {
  return name.trim().charAt(0).toLocaleUpperCase() || '?';
}

function AddCustomerForm() {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const [values, setValues] = useState<CustomerFormValues>(EMPTY_CUSTOMER);
  const [error, setError] = useState<string | null>(null);
  const [createCustomer, { isLoading }] = useCreateCustomerMutation();
  const [reactivateCustomer] = useReactivateCustomerMutation();
  const reactivation = useReactivation((id) => reactivateCustomer(id).unwrap(), 'customers.successReactivated', () =>
    setValues(EMPTY_CUSTOMER),
  );

  async function submit() {
    reactivation.clear();
    const check = checkCustomer(values);
    if (!check.ok) {
      setError(t(check.error));
      return;
    }
    setError(null);
    try {
      await createCustomer(check.body).unwrap();
      setValues(EMPTY_CUSTOMER);
      feedback.success('customers.successAdded');
    } catch (failure) {
      if (!reactivation.caught(failure)) setError(feedback.errorText(failure, 'customers.errorDocumentExists'));
    }
  }

  return (
    <AddFormPanel
      title={t('customers.addTitle')}
      submitLabel={t('customers.add')}
      submittingLabel={t('common.adding')}
      submitting={isLoading}
      error={error}
      notice={<ReactivateOffer reactivation={reactivation} text={t('customers.inactiveOffer')} />}
      onSubmit={() => void submit()}
    >
      <CustomerFields values={values} onChange={setValues} />
    </AddFormPanel>
  );
}

function EditCustomerModal({ customer, onClose }: { customer: Customer; onClose: () => void }) {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const [values, setValues] = useState<CustomerFormValues>(() => customerFormValues(customer));
  const [error, setError] = useState<string | null>(null);
  const [updateCustomer, { isLoading }] = useUpdateCustomerMutation();

  async function submit() {
    const check = checkCustomer(values, customer);
    if (!check.ok) {
      setError(t(check.error));
      return;
    }
    setError(null);
    try {
      await updateCustomer({ id: customer.id, ...check.body }).unwrap();
      feedback.success('customers.successUpdated');
      onClose();
    } catch (failure) {
      setError(feedback.errorText(failure, 'customers.errorDocumentExists'));
    }
  }

  return (
    <EditModal open title={t('customers.editTitle')} onCancel={onClose} onSubmit={() => void submit()} submitting={isLoading} error={error}>
      <CustomerFields values={values} onChange={setValues} editing />
    </EditModal>
  );
}

function DeleteCustomerModal({ customer, onClose }: { customer: Customer | null; onClose: () => void }) {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const usage = useGetCustomerUsageQuery(customer?.id ?? skipToken, { refetchOnMountOrArgChange: true });
  const check = useUsageCheck(usage, (u) => u.transactions > 0);
  const [deleteCustomer, { isLoading }] = useDeleteCustomerMutation();
  const name = customer?.name ?? '';

  async function confirm() {
    if (!customer) return;
    try {
      await deleteCustomer(customer.id).unwrap();
      feedback.success('customers.successDeleted');
    } catch (failure) {
      feedback.failure(failure);
    } finally {
      onClose();
    }
  }

  return (
    <DeleteConfirmModal
      open={customer !== null}
      name={name}
      soft={check.soft}
      checking={check.checking}
      message={check.message}
      softText={t('customers.deleteSoft', { name })}
      hardText={t('customers.deleteHard', { name })}
      deleting={isLoading}
      onCancel={onClose}
      onConfirm={() => void confirm()}
    />
  );
}

/** /settings/customers: add form, the server's paged name search, edit and delete. */
export function CustomersPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const list = useListState();
  const typed = list.search.trim();
  const text = useDebouncedValue(typed, SEARCH_DELAY_MS);
  const [showInactive, setShowInactive] = useState(false);
  const { data, isLoading, isFetching, isError } = useSearchCustomersQuery({
    text,
    page: list.page,
    pageSize: list.pageSize,
    inactive: showInactive,
  });
  const [reactivateCustomer] = useReactivateCustomerMutation();
  const reactivation = useListReactivation<Customer>((id) => reactivateCustomer(id).unwrap(), 'customers.successReactivated');
  const [editing, setEditing] = useState<Customer | null>(null);
  const [deleting, setDeleting] = useState<Customer | null>(null);

  const emptyText = isLoading ? t('common.loading') : isError ? t('customers.errorLoading') : t('customers.empty');

  return (
    <section className="page">
      <PageHeader title={t('customers.title')} subtitle={t('customers.subtitle')} />
      <ListScreen
        form={<AddCustomerForm />}
        list={
          <PagedList<Customer>
            mode="server"
            title={t('customers.listTitle')}
            items={data?.items ?? []}
            total={data?.total ?? 0}
            state={list}
            loading={isFetching || text !== typed}
            getKey={(customer) => customer.id}
            searchPlaceholder={t('customers.searchPlaceholder')}
            emptyText={emptyText}
            noResultsText={isError ? t('customers.errorLoading') : t('customers.noResults')}
            renderItem={(customer) => (
              <div className="entity-row">
                <span className="avatar" aria-hidden="true">
                  {initial(customer.name)}
                </span>
                <div className="entity-row-text">
                  <span className="row-title">{customer.name}</span>
                  <span className="row-meta">
                    {t('customers.documentValue', { document: format.document(customer.document) })}
                    {customer.email ? (
                      <>
                        {' · '}
                        <a href={`mailto:${customer.email}`}>{customer.email}</a>
                      </>
                    ) : null}
                  </span>
                </div>
                <span className="entity-row-figure" data-testid="customer-points">
                  {t('customers.pointsValue', { points: format.number(customer.points) })}
                </span>
              </div>
            )}
            itemLabel={(customer) => customer.name}
            inactive={{ shown: showInactive, onShownChange: setShowInactive, ...reactivation }}
            renderActions={(customer) => (
              <RowMenu name={customer.name} onEdit={() => setEditing(customer)} onDelete={() => setDeleting(customer)} />
            )}
          />
        }
      />
      {editing ? <EditCustomerModal key={editing.id} customer={editing} onClose={() => setEditing(null)} /> : null}
      <DeleteCustomerModal customer={deleting} onClose={() => setDeleting(null)} />
    </section>
  );
}
