import { ArrowRightEndOnRectangleIcon, BuildingOffice2Icon, PencilSquareIcon, PlusIcon, TrashIcon } from '@heroicons/react/24/outline';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { apiErrorMessage, apiErrorStatus } from '../../app/api';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { impersonationStarted, selectUser, sessionEnded } from '../../app/session';
import { toastShown } from '../../app/toasts';
import { DeleteConfirmModal, PagedList } from '../../components/list';
import { LoadingOverlay } from '../../components/LoadingOverlay';
import { PageHeader } from '../../components/PageHeader';
import { RowActionButton } from '../../components/RowActionButton';
import { COMPANY_DEFAULT_PAGE_SIZE, COMPANY_PAGE_SIZES } from '../../lib/constants';
import { byName, matchesSearch } from '../../lib/paging';
import { paths } from '../../lib/paths';
import type { Company } from '../../lib/types';
import {
  adminLogin,
  useCreateCompanyMutation,
  useDeleteCompanyMutation,
  useGetCompaniesQuery,
  useImpersonateMutation,
  useUpdateCompanyMutation,
  type CompanyDetails,
  type NewCompany,
} from './companiesApi';
import { CompanyFormModal } from './CompanyFormModal';
import { CompanyStatsPanel } from './CompanyStatsPanel';

type Editing = { kind: 'create' } | { kind: 'edit'; company: Company } | null;

const filterCompany = (company: Company, search: string) =>
  matchesSearch(search, company.name, company.taxId, company.prefix);

function CompanyLogo({ company }: { company: Company }) {
  const [broken, setBroken] = useState(false);
  if (company.logoUrl && !broken) {
    return <img className="avatar avatar-img" src={company.logoUrl} alt="" onError={() => setBroken(true)} />;
  }
  return (
    <span className="avatar" aria-hidden="true">
      <BuildingOffice2Icon />
    </span>
  );
}

/** /superadmin: list, create, edit, delete and impersonate companies. */
export function SuperAdminPage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const user = useAppSelector(selectUser);
  const isSuperAdmin = user?.role === 'super_admin';

  const { data, isLoading, isError, error } = useGetCompaniesQuery(undefined, { skip: !isSuperAdmin });
  const [createCompany, createState] = useCreateCompanyMutation();
  const [updateCompany, updateState] = useUpdateCompanyMutation();
  const [deleteCompany, deleteState] = useDeleteCompanyMutation();
  const [impersonate, impersonateState] = useImpersonateMutation();

  const [editing, setEditing] = useState<Editing>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Company | null>(null);
  const [view, setView] = useState<'companies' | 'figures'>('companies');

  const companies = useMemo(() => [...(data ?? [])].sort(byName((c: Company) => c.name)), [data]);

  // Loading the company list is this session's data load: if it fails, log out.
  useEffect(() => {
    if (isError && apiErrorStatus(error) !== 401) {
      dispatch(sessionEnded());
      dispatch(toastShown('error', { messageKey: 'common.errorLoadingData' }));
    }
  }, [isError, error, dispatch]);

  function closeForm() {
    setEditing(null);
    setFormError(null);
  }

  async function handleCreate(values: NewCompany) {
    setFormError(null);
    try {
      const company = await createCompany(values).unwrap();
      closeForm();
      dispatch(
        toastShown('success', {
          messageKey: 'superAdmin.successCompanyCreated',
          params: { name: company.name ?? values.name, login: adminLogin(company.prefix ?? values.prefix) },
        }),
      );
    } catch (failure) {
      setFormError(apiErrorMessage(failure) ?? t('superAdmin.errorCreatingCompany'));
    }
  }

  async function handleUpdate(id: number, values: CompanyDetails) {
    setFormError(null);
    try {
      await updateCompany({ id, ...values }).unwrap();
      closeForm();
      dispatch(toastShown('success', { messageKey: 'superAdmin.successUpdated' }));
    } catch (failure) {
      setFormError(apiErrorMessage(failure) ?? t('common.errorGeneric'));
    }
  }

  async function handleDelete() {
    if (!deleting) return;
    const company = deleting;
    try {
      await deleteCompany(company.id).unwrap();
      dispatch(toastShown('success', { messageKey: 'superAdmin.successDeleted', params: { name: company.name } }));
    } catch (failure) {
      const message = apiErrorMessage(failure);
      dispatch(toastShown('error', message ? { message } : { messageKey: 'common.errorGeneric' }));
    } finally {
      setDeleting(null);
    }
  }

  async function handleImpersonate(company: Company) {
    try {
      const session = await impersonate(company.id).unwrap();
      dispatch(impersonationStarted(session));
      navigate(paths.main, { replace: true });
    } catch {
      dispatch(toastShown('error', { messageKey: 'common.errorGeneric' }));
    }
  }

  if (isLoading) return <LoadingOverlay />;

  return (
    <section className="page">
      <PageHeader
        title={t('superAdmin.title')}
        subtitle={t('superAdmin.subtitle')}
        actions={
          <button type="button" className="btn btn-primary" onClick={() => setEditing({ kind: 'create' })}>
            <PlusIcon aria-hidden="true" />
            {t('superAdmin.createCompany')}
          </button>
        }
      />
      <div className="view-switch" role="group" aria-label={t('superAdmin.stats.views')}>
        <button
          type="button"
          className={view === 'companies' ? 'btn btn-primary btn-sm' : 'btn btn-secondary btn-sm'}
          aria-pressed={view === 'companies'}
          onClick={() => setView('companies')}
        >
          {t('superAdmin.listTitle')}
        </button>
        <button
          type="button"
          className={view === 'figures' ? 'btn btn-primary btn-sm' : 'btn btn-secondary btn-sm'}
          aria-pressed={view === 'figures'}
          onClick={() => setView('figures')}
        >
          {t('superAdmin.stats.title')}
        </button>
      </div>
      {view === 'figures' ? (
        <CompanyStatsPanel />
      ) : (
        <PagedList<Company>
          title={t('superAdmin.listTitle')}
          items={companies}
          filter={filterCompany}
          getKey={(company) => company.id}
          pageSizes={COMPANY_PAGE_SIZES}
          defaultPageSize={COMPANY_DEFAULT_PAGE_SIZE}
          searchPlaceholder={t('superAdmin.searchPlaceholder')}
          emptyText={t('superAdmin.noCompanies')}
          noResultsText={t('superAdmin.noResults')}
          renderItem={(company) => (
            <div className="company-row">
              <CompanyLogo company={company} />
              <div className="company-row-text">
                <span className="row-title">
                  {company.name} <span className="chip">{`@${company.prefix}`}</span>
                </span>
                <span className="row-meta">
                  {[
                    t('superAdmin.taxIdValue', { taxId: company.taxId }),
                    company.businessName,
                    t('superAdmin.adminLogin', { login: adminLogin(company.prefix) }),
                    company.schemaVersion != null ? t('superAdmin.schemaVersion', { version: company.schemaVersion }) : null,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
              </div>
            </div>
          )}
          renderActions={(company) => (
            <>
              <RowActionButton
                Icon={ArrowRightEndOnRectangleIcon}
                text={t('superAdmin.impersonate')}
                onClick={() => void handleImpersonate(company)}
                disabled={impersonateState.isLoading}
              />
              <button
                type="button"
                className="icon-button"
                onClick={() => setEditing({ kind: 'edit', company })}
                aria-label={`${t('common.edit')} ${company.name}`}
                title={t('common.edit')}
              >
                <PencilSquareIcon aria-hidden="true" />
              </button>
              <button
                type="button"
                className="icon-button icon-button-danger"
                onClick={() => setDeleting(company)}
                aria-label={`${t('common.delete')} ${company.name}`}
                title={t('common.delete')}
              >
                <TrashIcon aria-hidden="true" />
              </button>
            </>
          )}
        />
      )}

      {editing ? (
        <CompanyFormModal
          key={editing.kind === 'edit' ? editing.company.id : 'new'}
          company={editing.kind === 'edit' ? editing.company : null}
          submitting={createState.isLoading || updateState.isLoading}
          error={formError}
          onCancel={closeForm}
          onCreate={(values) => void handleCreate(values)}
          onUpdate={(id, values) => void handleUpdate(id, values)}
          onInvalid={setFormError}
        />
      ) : null}

      <DeleteConfirmModal
        open={deleting !== null}
        name={deleting?.name ?? ''}
        title={t('superAdmin.deleteTitle')}
        message={t('superAdmin.deleteWarning', { name: deleting?.name ?? '' })}
        deleting={deleteState.isLoading}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void handleDelete()}
      />
    </section>
  );
}
