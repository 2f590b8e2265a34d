import {
  AdjustmentsHorizontalIcon,
  BellAlertIcon,
  BuildingStorefrontIcon,
  ChevronDownIcon,
  CommandLineIcon,
  CubeIcon,
  KeyIcon,
  ShieldCheckIcon,
  Squares2X2Icon,
  TagIcon,
  UserGroupIcon,
  UsersIcon,
} from '@heroicons/react/24/outline';
import { useId, useState, type ComponentType, type SVGProps } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation } from 'react-router-dom';
import type { SettingsGroup } from '../../lib/access';
import { paths, type AppPath } from '../../lib/paths';

type Icon = ComponentType<SVGProps<SVGSVGElement>>;

const GROUP_ICONS: Record<SettingsGroup['id'], Icon> = {
  general: AdjustmentsHorizontalIcon,
  commercial: UserGroupIcon,
  products: CubeIcon,
};

const LINK_ICONS: Partial<Record<AppPath, Icon>> = {
  [paths.settingsRules]: ShieldCheckIcon,
  [paths.settingsPermissions]: KeyIcon,
  [paths.settingsUsers]: UsersIcon,
  [paths.settingsPos]: BuildingStorefrontIcon,
  [paths.settingsApiKeys]: CommandLineIcon,
  [paths.settingsCustomers]: UserGroupIcon,
  [paths.settingsCategories]: TagIcon,
  [paths.settingsProducts]: Squares2X2Icon,
  [paths.settingsWebhooks]: BellAlertIcon,
};

/** The group holding the page at `pathname` (the link's path or a path below it). */
export function groupOfPath(groups: readonly SettingsGroup[], pathname: string): SettingsGroup['id'] | undefined {
  return groups.find((group) =>
    group.links.some((link) => pathname === link.path || pathname.startsWith(`${link.path}/`)),
  )?.id;
}

/** A group the user opened or closed by hand, and the page where that happened. */
type Toggles = Partial<Record<SettingsGroup['id'], { open: boolean; pathname: string }>>;

/**
 * The settings menu: collapsible groups of links. The group of the current page opens whenever
 * the page changes; the others stay as the user left them (closed at first).
 */
export function SettingsMenu({ groups }: { groups: readonly SettingsGroup[] }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const baseId = useId();
  const [toggles, setToggles] = useState<Toggles>({});
  const currentGroup = groupOfPath(groups, pathname);

  function isOpen(id: SettingsGroup['id']): boolean {
    const toggle = toggles[id];
    if (id === currentGroup) return toggle && toggle.pathname === pathname ? toggle.open : true;
    return toggle?.open ?? false;
  }

  function toggle(id: SettingsGroup['id']) {
    const open = !isOpen(id);
    setToggles((current) => ({ ...current, [id]: { open, pathname } }));
  }

  return (
    <nav className="settings-menu card" aria-label={t('settings.menuLabel')}>
      {groups.map((group) => {
        const open = isOpen(group.id);
        const listId = `${baseId}-${group.id}`;
        const GroupIcon = GROUP_ICONS[group.id];
        return (
          <div key={group.id} className={`settings-group ${open ? 'settings-group-open' : ''}`}>
            <button
              type="button"
              className="settings-group-toggle"
              aria-expanded={open}
              aria-controls={listId}
              onClick={() => toggle(group.id)}
            >
              <GroupIcon aria-hidden="true" />
              <span className="settings-group-label">{t(group.labelKey)}</span>
              <ChevronDownIcon className="settings-group-chevron" aria-hidden="true" />
            </button>
            <ul id={listId} className="settings-links" hidden={!open}>
              {group.links.map((link) => {
                const LinkIcon = LINK_ICONS[link.path] ?? Squares2X2Icon;
                return (
                  <li key={link.path}>
                    <NavLink
                      to={link.path}
                      className={({ isActive }) => `settings-link ${isActive ? 'settings-link-active' : ''}`}
                    >
                      <LinkIcon aria-hidden="true" />
                      {t(link.labelKey)}
                    </NavLink>
                  </li>
                );
              })}
            </ul>
          </div>
        );
      })}
    </nav>
  );
}
