import { skipToken } from '@reduxjs/toolkit/query/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../../../app/hooks';
import { selectUser } from '../../../app/session';
import { TextField } from '../../../components/FormField';
import { NewPasswordField } from '../../../components/NewPasswordField';
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
  useSaveForm,
  useShownRecords,
} from '../../../components/list';
import { matchesSearch } from '../../../lib/paging';
import { UserAssignmentFields } from './UserAssignmentFields';
import { EMPTY_USER, newUserBody, userUpdateBody, withRole, type CompanyRole } from './userForm';
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

const usernameOf = (user: CompanyUser) => user.username;
const filterUser = (user: CompanyUser, search: string) => matchesSearch(search, user.username);

/** The login a user types: username@prefix. */
function loginOf(username: string, prefix: string | undefined): string {
  return prefix ? `${username}@${prefix}` : username;
}

function AddUserForm({ prefix }: { prefix: string | undefined }) {
  const { t } = useTranslation();
  const [createUser] = useCreateUserMutation();
  const [reactivateUser] = useReactivateUserMutation();
  const { values, setValues, panel } = useAddForm({
    empty: EMPTY_USER,
    check: newUserBody,
    create: (body) => createUser(body).unwrap(),
    reactivate: (id) => reactivateUser(id).unwrap(),
    successParams: (created, body) => ({ login: loginOf(created.username ?? body.username, prefix) }),
    texts: {
      added: 'users.successAdded',
      reactivated: 'users.successReactivated',
      conflict: 'users.errorExists',
      inactiveOffer: 'users.inactiveOffer',
    },
  });

  return (
    <AddFormPanel title={t('users.addTitle')} submitLabel={t('users.add')} {...panel}>
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
  const [updateUser] = useUpdateUserMutation();
  const { values, setValues, form } = useEditForm({
    initial: (): { role: CompanyRole | ''; posId: string } => ({
      role: user.role,
      posId: user.posId != null ? String(user.posId) : '',
    }),
    check: userUpdateBody,
    save: (body) => updateUser({ id: user.id, ...body }).unwrap(),
    success: 'users.successUpdated',
    onSaved: onClose,
  });

  return (
    <EditModal open title={t('users.editTitle', { login: loginOf(user.username, prefix) })} onCancel={onClose} {...form}>
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

/** An admin sets a new password for another user: 8 to 128 characters. */
function ResetPasswordModal({ user, prefix, onClose }: { user: CompanyUser; prefix: string | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [resetPassword] = useResetUserPasswordMutation();
  const login = loginOf(user.username, prefix);
  const form = useSaveForm({
    check: () =>
      password.length < 8 || password.length > 128 ? { ok: false, error: 'users.errorPasswordLength' } : { ok: true, body: password },
    save: (body) => resetPassword({ id: user.id, password: body }).unwrap(),
    success: 'users.successPasswordReset',
    successParams: () => ({ login }),
    onSaved: onClose,
  });

  return (
    <EditModal
      open
      title={t('users.resetPasswordTitle', { login })}
      onCancel={onClose}
      {...form}
      submitLabel={t('users.resetPassword')}
    >
      <p className="field-hint">{t('users.resetPasswordHint')}</p>
      <NewPasswordField value={password} onChange={setPassword} />
    </EditModal>
  );
}

/** /settings/users (admin): add form with username@prefix, list, role/POS edit, delete. */
export function UsersPage() {
  const { t } = useTranslation();
  const me = useAppSelector(selectUser);
  const prefix = me?.company?.prefix;
  const [reactivateUser] = useReactivateUserMutation();
  const [deleteUser] = useDeleteUserMutation();
  const records = useRecordList<CompanyUser>({
    reactivate: (id) => reactivateUser(id).unwrap(),
    reactivated: 'users.successReactivated',
    remove: (id) => deleteUser(id).unwrap(),
    nameOf: usernameOf,
    deleteNameOf: (user) => loginOf(user.username, prefix),
  });
  const active = useGetUsersQuery();
  const inactive = useGetInactiveUsersQuery(records.showInactive ? undefined : skipToken);
  const { items: users, isLoading, isError } = useShownRecords(records.showInactive, active, inactive, usernameOf);
  const [resetting, setResetting] = useState<CompanyUser | null>(null);
  const usage = useGetUserUsageQuery(records.usageArg, USAGE_QUERY_OPTIONS);

  const isMe = (user: CompanyUser) => me != null && user.id === me.id;

  return (
    <ListScreen
      title={t('users.title')}
      subtitle={t('users.subtitle')}
      form={<AddUserForm prefix={prefix} />}
      list={
        <PagedList<CompanyUser>
          {...records.rows}
          title={t('users.listTitle')}
          items={users}
          filter={filterUser}
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
          canDelete={(user) => !isMe(user)}
          deleteDisabledHint={t('users.errorDeleteSelf')}
        />
      }
    >
      <RecordDialogs
        records={records}
        renderEdit={(user, onClose) => <EditUserModal user={user} prefix={prefix} onClose={onClose} />}
        usage={usage}
        hasRelated={(u) => u.transactions > 0}
        texts={{ soft: 'users.deleteSoft', hard: 'users.deleteHard', deleted: 'users.successDeleted' }}
      />
      {resetting ? <ResetPasswordModal key={resetting.id} user={resetting} prefix={prefix} onClose={() => setResetting(null)} /> : null}
    </ListScreen>
  );
}
