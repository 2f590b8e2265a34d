import { Outlet } from 'react-router-dom';
import { useAppSelector } from '../../app/hooks';
import { selectUser } from '../../app/session';
import { useGetSettingsQuery } from '../../app/tenantApi';
import { needsRolePermissions, visibleSettingsGroups } from '../../lib/access';
import { SettingsMenu } from './SettingsMenu';
import './settings.css';

/**
 * The /settings shell: the left menu (groups General, Commercial and Products, each link shown
 * when the user may open it) and the current settings page.
 */
export function SettingsLayout() {
  const user = useAppSelector(selectUser);
  const { data: settings } = useGetSettingsQuery(undefined, { skip: !user || !needsRolePermissions(user) });
  const groups = user ? visibleSettingsGroups(user, settings?.rolePermissions) : [];
  return (
    <div className="settings-shell">
      {groups.length > 0 ? <SettingsMenu groups={groups} /> : null}
      <div className="settings-content">
        <Outlet />
      </div>
    </div>
  );
}
