import { skipToken } from '@reduxjs/toolkit/query/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../../app/useFormat';
import {
  AddFormPanel,
  DeleteFlowModal,
  EditModal,
  ListScreen,
  PagedList,
  ReactivateOffer,
  USAGE_QUERY_OPTIONS,
  useListReactivation,
  useListState,
  useReactivation,
  useSaveForm,
} from '../../../components/list';
import { PageHeader } from '../../../components/PageHeader';
import type { Customer } from '../../../lib/types';
import { RowMenu } from '../shared/RowMenu';
import { useDebouncedValue } from '../../../lib/useDebouncedValue';
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
  const [values, setValues] = useState<CustomerFormValues>(EMPTY_CUSTOMER);
  const [createCustomer] = useCreateCustomerMutation();
  const [reactivateCustomer] = useReactivateCustomerMutation();
  const reset = () => setValues(EMPTY_CUSTOMER);
  const reactivation = useReactivation((id) => reactivateCustomer(id).unwrap(), 'customers.successReactivated', reset);
  const form = useSaveForm({
    check: () => checkCustomer(values),
    save: (body) => createCustomer(body).unwrap(),
    success: 'customers.successAdded',
    conflictKey: 'customers.errorDocumentExists',
    reactivation,
    onSaved: reset,
  });

  return (
    <AddFormPanel
      title={t('customers.addTitle')}
      submitLabel={t('customers.add')}
      submittingLabel={t('common.adding')}
      {...form}
      notice={<ReactivateOffer reactivation={reactivation} text={t('customers.inactiveOffer')} />}
    >
      <CustomerFields values={values} onChange={setValues} />
    </AddFormPanel>
  );
}

function EditCustomerModal({ customer, onClose }: { customer: Customer; onClose: () => void }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<CustomerFormValues>(() => customerFormValues(customer));
  const [updateCustomer] = useUpdateCustomerMutation();
  const form = useSaveForm({
    check: () => checkCustomer(values, customer),
    save: (body) => updateCustomer({ id: customer.id, ...body }).unwrap(),
    success: 'customers.successUpdated',
    conflictKey: 'customers.errorDocumentExists',
    onSaved: onClose,
  });

  return (
    <EditModal open title={t('customers.editTitle')} onCancel={onClose} {...form}>
      <CustomerFields values={values} onChange={setValues} editing />
    </EditModal>
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
  const usage = useGetCustomerUsageQuery(deleting?.id ?? skipToken, USAGE_QUERY_OPTIONS);
  const [deleteCustomer] = useDeleteCustomerMutation();

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
      <DeleteFlowModal
        record={deleting}
        name={deleting?.name ?? ''}
        usage={usage}
        hasRelated={(u) => u.transactions > 0}
        remove={(id) => deleteCustomer(id).unwrap()}
        texts={{ soft: 'customers.deleteSoft', hard: 'customers.deleteHard', deleted: 'customers.successDeleted' }}
        onClose={() => setDeleting(null)}
      />
    </section>
  );
}
