import { DocumentTextIcon, NoSymbolIcon, ShieldCheckIcon } from '@heroicons/react/24/outline';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useAppSelector } from '../../../app/hooks';
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
  useListState,
  useRecordList,
} from '../../../components/list';
import type { MenuEntry } from '../../../components/Menu';
import { customerDataPath } from '../../../lib/paths';
import type { Customer } from '../../../lib/types';
import { RowMenu } from '../shared/RowMenu';
import { SuppressCustomerModal } from './SuppressCustomerModal';
import { useDebouncedValue } from '../../../lib/useDebouncedValue';
import { checkCustomer, checkNewCustomer, customerFormValues, EMPTY_CUSTOMER, type CustomerFormValues } from './customerForm';
import { ConsentFields, ConsentsDialog, useCurrentNotice } from '../../privacy';
import { CustomerFields } from './CustomerFields';
import { ImportCustomersButton } from './ImportCustomers';
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

/** A new customer's fields and the purposes of the privacy notice they authorize. */
type NewCustomerValues = CustomerFormValues & { purposes: string[] };

const EMPTY_NEW_CUSTOMER: NewCustomerValues = { ...EMPTY_CUSTOMER, purposes: [] };

function AddCustomerForm() {
  const { t } = useTranslation();
  const [createCustomer] = useCreateCustomerMutation();
  const [reactivateCustomer] = useReactivateCustomerMutation();
  const { notice } = useCurrentNotice();
  const { values, setValues, panel } = useAddForm({
    empty: EMPTY_NEW_CUSTOMER,
    check: (values: NewCustomerValues) => checkNewCustomer(values, notice),
    create: (body) => createCustomer(body).unwrap(),
    reactivate: (id) => reactivateCustomer(id).unwrap(),
    texts: {
      added: 'customers.successAdded',
      reactivated: 'customers.successReactivated',
      conflict: 'customers.errorDocumentExists',
      inactiveOffer: 'customers.inactiveOffer',
    },
  });

  return (
    <AddFormPanel title={t('customers.addTitle')} submitLabel={t('customers.add')} {...panel}>
      <CustomerFields values={values} onChange={(fields) => setValues({ ...values, ...fields })} />
      <ConsentFields notice={notice} value={values.purposes} onChange={(purposes) => setValues({ ...values, purposes })} />
    </AddFormPanel>
  );
}

function EditCustomerModal({ customer, onClose }: { customer: Customer; onClose: () => void }) {
  const { t } = useTranslation();
  const [updateCustomer] = useUpdateCustomerMutation();
  const { values, setValues, form } = useEditForm({
    initial: () => customerFormValues(customer),
    check: (values: CustomerFormValues) => checkCustomer(values, customer),
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
  const [reactivateCustomer] = useReactivateCustomerMutation();
  const [deleteCustomer] = useDeleteCustomerMutation();
  const records = useRecordList<Customer>({
    reactivate: (id) => reactivateCustomer(id).unwrap(),
    reactivated: 'customers.successReactivated',
    remove: (id) => deleteCustomer(id).unwrap(),
    nameOf: (customer) => customer.name,
  });
  const { data, isLoading, isFetching, isError } = useSearchCustomersQuery({
    text,
    page: list.page,
    pageSize: list.pageSize,
    inactive: records.showInactive,
  });
  const usage = useGetCustomerUsageQuery(records.usageArg, USAGE_QUERY_OPTIONS);
  const isAdmin = useAppSelector(selectUser)?.role === 'admin';
  const navigate = useNavigate();
  const [suppressing, setSuppressing] = useState<Customer | null>(null);
  const [consenting, setConsenting] = useState<Customer | null>(null);
  // The holder's rights under Ley 1581 (docs/privacy.md): the authorizations for whoever manages
  // customers; the export and the suppression for admins only.
  const privacyEntries = (customer: Customer): MenuEntry[] => [
    {
      key: 'consents',
      label: t('customers.menu.consents'),
      icon: <ShieldCheckIcon aria-hidden="true" />,
      onSelect: () => setConsenting(customer),
    },
    ...(isAdmin
      ? [
          {
            key: 'exportData',
            label: t('customers.menu.exportData'),
            icon: <DocumentTextIcon aria-hidden="true" />,
            onSelect: () => void navigate(customerDataPath(customer.id)),
          },
          {
            key: 'suppress',
            label: t('customers.menu.suppress'),
            icon: <NoSymbolIcon aria-hidden="true" />,
            onSelect: () => setSuppressing(customer),
            danger: true,
          },
        ]
      : []),
  ];

  const emptyText = isLoading ? t('common.loading') : isError ? t('customers.errorLoading') : t('customers.empty');

  return (
    <ListScreen
      title={t('customers.title')}
      subtitle={t('customers.subtitle')}
      form={
        <>
          <AddCustomerForm />
          <ImportCustomersButton />
        </>
      }
      list={
        <PagedList<Customer>
          {...records.rows}
          mode="server"
          title={t('customers.listTitle')}
          items={data?.items ?? []}
          total={data?.total ?? 0}
          state={list}
          loading={isFetching || text !== typed}
          searchPlaceholder={t('customers.searchPlaceholder')}
          emptyText={emptyText}
          noResultsText={isError ? t('customers.errorLoading') : t('customers.noResults')}
          renderItem={(customer) => (
            <div className="entity-row">
              <span className="avatar" aria-hidden="true">
                {initial(customer.name)}
              </span>
              <div className="entity-row-text">
                <span className="row-title">
                  {customer.name}
                  {customer.claimInProgress ? (
                    <>
                      {' '}
                      <span className="claim-badge" data-testid="claim-in-progress">
                        {t('dataRequests.claimInProgress')}
                      </span>
                    </>
                  ) : null}
                </span>
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
          renderActions={(customer) => (
            <RowMenu
              name={customer.name}
              onEdit={() => records.rows.onEdit(customer)}
              onDelete={() => records.rows.onDelete(customer)}
              after={privacyEntries(customer)}
            />
          )}
        />
      }
    >
      <RecordDialogs
        records={records}
        renderEdit={(customer, onClose) => <EditCustomerModal customer={customer} onClose={onClose} />}
        usage={usage}
        hasRelated={(u) => u.transactions > 0}
        texts={{ soft: 'customers.deleteSoft', hard: 'customers.deleteHard', deleted: 'customers.successDeleted' }}
      />
      {suppressing ? <SuppressCustomerModal customer={suppressing} onClose={() => setSuppressing(null)} /> : null}
      {consenting ? <ConsentsDialog customer={consenting} onClose={() => setConsenting(null)} /> : null}
    </ListScreen>
  );
}
