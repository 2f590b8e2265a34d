import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '../../../components/FormField';
import type { TKey } from '../../../i18n/keys';
import { SETTINGS_SAVED_MESSAGE_MS } from '../../../lib/constants';
import { GRANTABLE_PATHS, paths, type GrantablePath } from '../../../lib/paths';
import type { RolePermissions } from '../../../lib/types';
import { useSaveSettingsMutation } from '../settingsApi';
import { useFeedback } from '../../../app/feedback';
import { SaveActions } from '../shared/SaveActions';
import { SettingsFormPage } from '../shared/SettingsFormPage';
import { useTimedMessage } from '../shared/useTimedMessage';
import { mayGrant, normalizePermissions, PERMISSION_ROLES, togglePermission, type PermissionRole } from './permissionGrid';

const PATH_LABELS: Record<GrantablePath, TKey> = {
  [paths.main]: 'settings.permissions.paths.main',
  [paths.accredit]: 'settings.permissions.paths.accredit',
  [paths.redeem]: 'settings.permissions.paths.redeem',
  [paths.reports]: 'settings.permissions.paths.reports',
  [paths.settingsCustomers]: 'settings.permissions.paths.customers',
  [paths.settingsProducts]: 'settings.permissions.paths.products',
  [paths.settingsCategories]: 'settings.permissions.paths.categories',
  [paths.dataRequests]: 'settings.permissions.paths.dataRequests',
  [paths.alerts]: 'settings.permissions.paths.alerts',
};

function PermissionsForm({ initial }: { initial: RolePermissions }) {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const [permissions, setPermissions] = useState<RolePermissions>(() => normalizePermissions(initial));
  const [error, setError] = useState<string | null>(null);
  const [saved, showSaved] = useTimedMessage(SETTINGS_SAVED_MESSAGE_MS);
  const [saveSettings, { isLoading }] = useSaveSettingsMutation();

  function toggle(role: PermissionRole, path: GrantablePath) {
    setPermissions((current) => togglePermission(current, role, path));
  }

  async function save() {
    setError(null);
    try {
      await saveSettings({ rolePermissions: normalizePermissions(permissions) }).unwrap();
      showSaved({ kind: 'success', text: t('settings.success') });
    } catch (failure) {
      setError(feedback.errorText(failure));
    }
  }

  return (
    <form
      className="card settings-card"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <div className="table-scroll">
        <table className="permissions-table">
          <caption className="visually-hidden">{t('settings.permissions.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('settings.permissions.screenColumn')}</th>
              {PERMISSION_ROLES.map((role) => (
                <th key={role} scope="col">
                  {t(`roles.${role}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {GRANTABLE_PATHS.map((path) => (
              <tr key={path}>
                <th scope="row">
                  <span className="row-title">{t(PATH_LABELS[path])}</span>
                  <span className="row-meta permissions-path">{path}</span>
                </th>
                {PERMISSION_ROLES.map((role) => (
                  <td key={role}>
                    {mayGrant(role, path) ? (
                    <input
                      type="checkbox"
                      className="checkbox"
                      checked={permissions[role].includes(path)}
                      onChange={() => toggle(role, path)}
                      aria-label={t('settings.permissions.checkboxLabel', {
                        role: t(`roles.${role}`),
                        screen: t(PATH_LABELS[path]),
                      })}
                    />
                    ) : (
                      <span className="row-meta">{t('settings.permissions.notForRole')}</span>
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <FormError message={error} />
      <SaveActions saved={saved} saving={isLoading} label={t('settings.permissions.save')} />
    </form>
  );
}

/** /settings/permissions (admin): which screens supervisors and cajeros may open. */
export function PermissionsPage() {
  const { t } = useTranslation();
  return (
    <SettingsFormPage
      title={t('settings.permissions.title')}
      subtitle={t('settings.permissions.subtitle')}
      form={(settings) => <PermissionsForm initial={settings.rolePermissions} />}
    />
  );
}
