import { Outlet } from 'react-router-dom';

/**
 * The /settings shell. The left menu with its collapsible groups (SETTINGS_GROUPS and
 * visibleSettingsGroups in lib/access) comes with the settings issue; for now it shows the page.
 */
export function SettingsLayout() {
  return (
    <div className="settings-shell">
      <Outlet />
    </div>
  );
}
