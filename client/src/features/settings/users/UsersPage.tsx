import { skipToken } from '@reduxjs/toolkit/query/react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../../../app/hooks';
import { selectUser } from '../../../app/session';
import { TextField } from '../../../components/FormField';
import { AddFormPanel, DeleteConfirmModal, EditModal, ListScreen, PagedList } from '../../../components/list';
import { PageHeader } from '../../../components/PageHeader';
import { byName, matchesSearch } from '../../../lib/paging';
import { useFeedback } from '../../../app/feedback';
import { ReactivateOffer, useListReactivation, useReactivation } from '../../../components/list/reactivation';
import { useUsageCheck } from '../../../components/list/useUsageCheck';
import { UserAssignmentFields } from './UserAssignmentFields';
import { EMPTY_USER, newUserBody, userUpdateBody, withRole, type CompanyRole, type UserFormValues } from './userForm';
import {
  useCreateUserMutation,
  useDeleteUserMutation,
  useGetUserUsageQuery,
  useGetInactiveUsersQuery,
  useGetUsersQuery,
  useReactivateUserMutation,
  useResetUserPasswordMutation,
  useUpdateUserMutation,
  type CompanyUser,
} from './usersApi';

const filterUser = (user: CompanyUser, search: string) => matchesSearch(search, user.username);

/** The login a user types: username@prefix. */
function loginOf(username: string, prefix: string | undefined): string {
  return prefix ? `${username}@${prefix}` : username;
}

function AddUserForm({ prefix }: { prefix: string | undefined }) {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const [values, setValues] = useState<UserFormValues>(EMPTY_USER);
  const [error, setError] = useState<string | null>(null);
  const [createUser, { isLoading }] = useCreateUserMutation();
  const [reactivateUser] = useReactivateUserMutation();
  const reactivation = useReactivation((id) => reactivateUser(id).unwrap(), 'users.successReactivated', () => setValues(EMPTY_USER));

  async function submit() {
    reactivation.clear();
    const check = newUserBody(values);
    if (!check.ok) {
      setError(t(check.error));
      return;
    }
    setError(null);
    try {
      const created = await createUser(check.body).unwrap();
      setValues(EMPTY_USER);
      feedback.success('users.successAdded', { login: loginOf(created.username ?? check.body.username, prefix) });
    } catch (failure) {
      if (!reactivation.caught(failure)) setError(feedback.errorText(failure, 'users.errorExists'));
    }
  }

  return (
    <AddFormPanel
      title={t('users.addTitle')}
      submitLabel={t('users.add')}
      submittingLabel={t('common.adding')}
      submitting={isLoading}
      error={error}
      notice={<ReactivateOffer reactivation={reactivation} text={t('users.inactiveOffer')} />}
      onSubmit={() => void submit()}
    >
      <TextField
        label={t('users.fields.username')}
        name="username"
        value={values.username}
        onChange={(username) => setValues((v) => ({ ...v, username }))}
        suffix={prefix ? `@${prefix}` : undefined}
        hint={t('users.usernameHint')}
        required
        maxLength={50}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
      />
      <TextField
        label={t('users.fields.password')}
        name="password"
        type="password"
        value={values.password}
        onChange={(password) => setValues((v) => ({ ...v, password }))}
        hint={t('users.passwordHint')}
        required
        maxLength={128}
        autoComplete="new-password"
      />
      <UserAssignmentFields
        role={values.role}
        posId={values.posId}
        onRoleChange={(role) => setValues((v) => withRole(v, role))}
        onPosChange={(posId) => setValues((v) => ({ ...v, posId }))}
      />
    </AddFormPanel>
  );
}

function EditUserModal({ user, prefix, onClose }: { user: CompanyUser; prefix: string | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const [values, setValues] = useState<{ role: CompanyRole | ''; posId: string }>({
    role: user.role,
    posId: user.posId != null ? String(user.posId) : '',
  });
  const [error, setError] = useState<string | null>(null);
  const [updateUser, { isLoading }] = useUpdateUserMutation();

  async function submit() {
    const check = userUpdateBody(values);
    if (!check.ok) {
      setError(t(check.error));
      return;
    }
    setError(null);
    try {
      await updateUser({ id: user.id, body: check.body }).unwrap();
      feedback.success('users.successUpdated');
      onClose();
    } catch (failure) {
      setError(feedback.errorText(failure));
    }
  }

  return (
    <EditModal
      open
      title={t('users.editTitle', { login: loginOf(user.username, prefix) })}
      onCancel={onClose}
      onSubmit={() => void submit()}
      submitting={isLoading}
      error={error}
    >
      <p className="field-hint">{t('users.editHint')}</p>
      <UserAssignmentFields
        role={values.role}
        posId={values.posId}
        onRoleChange={(role) => setValues((v) => withRole(v, role))}
        onPosChange={(posId) => setValues((v) => ({ ...v, posId }))}
        currentPosName={user.posName}
      />
    </EditModal>
  );
}

function DeleteUserModal({ user, prefix, onClose }: { user: CompanyUser | null; prefix: string | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const usage = useGetUserUsageQuery(user?.id ?? skipToken, { refetchOnMountOrArgChange: true });
  const check = useUsageCheck(usage, (u) => u.transactions > 0);
  const [deleteUser, { isLoading }] = useDeleteUserMutation();
  const name = user ? loginOf(user.username, prefix) : '';

  async function confirm() {
    if (!user) return;
    try {
      await deleteUser(user.id).unwrap();
      feedback.success('users.successDeleted');
    } catch (failure) {
      feedback.failure(failure);
    } finally {
      onClose();
    }
  }

  return (
    <DeleteConfirmModal
      open={user !== null}
      name={name}
      soft={check.soft}
      checking={check.checking}
      message={check.message}
      softText={t('users.deleteSoft', { name })}
      hardText={t('users.deleteHard', { name })}
      deleting={isLoading}
      onCancel={onClose}
      onConfirm={() => void confirm()}
    />
  );
}

/** /settings/users (admin): add form with username@prefix, list, role/POS edit, delete. */
function ResetPasswordModal({ user, prefix, onClose }: { user: CompanyUser; prefix: string | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [resetPassword, { isLoading }] = useResetUserPasswordMutation();
  const login = loginOf(user.username, prefix);

  async function submit() {
    if (password.length < 8 || password.length > 128) {
      setError(t('users.errorPasswordLength'));
      return;
    }
    setError(null);
    try {
      await resetPassword({ id: user.id, password }).unwrap();
      feedback.success('users.successPasswordReset', { login });
      onClose();
    } catch (failure) {
      setError(feedback.errorText(failure));
    }
  }

  return (
    <EditModal
      open
      title={t('users.resetPasswordTitle', { login })}
      onCancel={onClose}
      onSubmit={() => void submit()}
      submitting={isLoading}
      error={error}
      submitLabel={t('users.resetPassword')}
    >
      <p className="field-hint">{t('users.resetPasswordHint')}</p>
      <TextField
        label={t('password.new')}
        type="password"
        value={password}
        onChange={setPassword}
        autoComplete="new-password"
        hint={t('users.passwordHint')}
        required
      />
    </EditModal>
  );
}

export function UsersPage() {
  const { t } = useTranslation();
  const me = useAppSelector(selectUser);
  const prefix = me?.company?.prefix;
  const [showInactive, setShowInactive] = useState(false);
  const active = useGetUsersQuery();
  const inactive = useGetInactiveUsersQuery(showInactive ? undefined : skipToken);
  const { data, isLoading, isError } = showInactive ? inactive : active;
  const [reactivateUser] = useReactivateUserMutation();
  const reactivation = useListReactivation<CompanyUser>((id) => reactivateUser(id).unwrap(), 'users.successReactivated');
  const users = useMemo(() => [...(data ?? [])].sort(byName((u: CompanyUser) => u.username)), [data]);
  const [editing, setEditing] = useState<CompanyUser | null>(null);
  const [deleting, setDeleting] = useState<CompanyUser | null>(null);
  const [resetting, setResetting] = useState<CompanyUser | null>(null);

  const isMe = (user: CompanyUser) => me != null && user.id === me.id;

  return (
    <section className="page">
      <PageHeader title={t('users.title')} subtitle={t('users.subtitle')} />
      <ListScreen
        form={<AddUserForm prefix={prefix} />}
        list={
          <PagedList<CompanyUser>
            title={t('users.listTitle')}
            items={users}
            filter={filterUser}
            getKey={(user) => user.id}
            itemLabel={(user) => user.username}
            searchPlaceholder={t('users.searchPlaceholder')}
            emptyText={isLoading ? t('common.loading') : isError ? t('users.errorLoading') : t('users.empty')}
            noResultsText={t('users.noResults')}
            renderItem={(user) => (
              <div className="entity-row">
                <div className="entity-row-text">
                  <span className="row-title">
                    {user.username}
                    {prefix ? <span className="row-title-muted">{`@${prefix}`}</span> : null}
                    {isMe(user) ? <span className="chip">{t('users.you')}</span> : null}
                  </span>
                  <span className="row-meta">
                    {t(`roles.${user.role}`)}
                    {' · '}
                    {user.role === 'admin' ? t('common.notApplicable') : (user.posName ?? t('common.notAvailable'))}
                  </span>
                </div>
                {me?.role === 'admin' && !isMe(user) ? (
                  <button
                    type="button"
                    className="btn btn-secondary btn-sm"
                    onClick={() => setResetting(user)}
                    aria-label={t('users.resetPasswordOf', { login: loginOf(user.username, prefix) })}
                  >
                    {t('users.resetPassword')}
                  </button>
                ) : null}
              </div>
            )}
            onEdit={setEditing}
            onDelete={setDeleting}
            canDelete={(user) => !isMe(user)}
            deleteDisabledHint={t('users.errorDeleteSelf')}
            inactive={{ shown: showInactive, onShownChange: setShowInactive, ...reactivation }}
          />
        }
      />
      {editing ? <EditUserModal key={editing.id} user={editing} prefix={prefix} onClose={() => setEditing(null)} /> : null}
      <DeleteUserModal user={deleting} prefix={prefix} onClose={() => setDeleting(null)} />
      {resetting ? <ResetPasswordModal key={resetting.id} user={resetting} prefix={prefix} onClose={() => setResetting(null)} /> : null}
    </section>
  );
}
