import {
  ArrowRightStartOnRectangleIcon,
  Bars3Icon,
  BellAlertIcon,
  BuildingOffice2Icon,
  ChartBarIcon,
  ClipboardDocumentListIcon,
  Cog6ToothIcon,
  GiftIcon,
  HomeIcon,
  KeyIcon,
  PlusCircleIcon,
  ShieldCheckIcon,
  SparklesIcon,
  UserCircleIcon,
  XMarkIcon,
} from '@heroicons/react/24/outline';
import { lazy, Suspense, useEffect, useState, type ComponentType, type SVGProps } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation, useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { selectPendingCount } from '../../app/offline';
import { loggedOut, loginName, selectUser } from '../../app/session';
import { useGetSettingsQuery } from '../../app/tenantApi';
import { needsRolePermissions, visibleNavItems, type NavItem } from '../../lib/access';
import { withLaterTexts } from '../../i18n';
import { paths } from '../../lib/paths';
import type { Role, User } from '../../lib/types';
import { LanguageMenu } from '../LanguageMenu';
import { ThemeToggle } from '../ThemeToggle';

// Loaded when first opened: its form kit is not needed to draw the first screen.
// Its texts are in the later part of the language's (src/i18n/parts.ts).
const ChangePasswordDialog = lazy(() =>
  withLaterTexts(import('../ChangePasswordDialog')).then((m) => ({ default: m.ChangePasswordDialog })),
);

const LogoutWarning = lazy(() => import('./LogoutWarning').then((m) => ({ default: m.LogoutWarning })));

const NAV_ICONS: Record<NavItem['id'], ComponentType<SVGProps<SVGSVGElement>>> = {
  dashboard: HomeIcon,
  accredit: PlusCircleIcon,
  redeem: GiftIcon,
  reports: ChartBarIcon,
  dataRequests: ShieldCheckIcon,
  alerts: BellAlertIcon,
  settings: Cog6ToothIcon,
  audit: ClipboardDocumentListIcon,
  superAdmin: BuildingOffice2Icon,
};

function UserBadge({ user }: { user: User }) {
  const { t } = useTranslation();
  let detail: string;
  if (user.role === 'super_admin') detail = t('roles.super_admin');
  else if (user.company?.name) detail = user.posName ? `${user.company.name} · ${user.posName}` : user.company.name;
  else if (user.posName || user.posId != null) detail = t('header.posLabel', { pos: user.posName ?? String(user.posId) });
  else detail = t(`roles.${user.role as Role}`);
  return (
    <div className="user-badge" data-testid="user-badge">
      <UserCircleIcon className="user-badge-icon" aria-hidden="true" />
      <div className="user-badge-text">
        <span className="user-badge-login">{loginName(user)}</span>
        <span className="user-badge-detail">{detail}</span>
      </div>
    </div>
  );
}

function NavLinks({ items, onNavigate }: { items: NavItem[]; onNavigate?: () => void }) {
  const { t } = useTranslation();
  return (
    <ul className="nav-links">
      {items.map((item) => {
        const Icon = NAV_ICONS[item.id];
        return (
          <li key={item.id}>
            <NavLink to={item.path} className={({ isActive }) => `nav-link ${isActive ? 'nav-link-active' : ''}`} onClick={onNavigate}>
              <Icon className="nav-icon" aria-hidden="true" />
              <span>{t(item.labelKey)}</span>
            </NavLink>
          </li>
        );
      })}
    </ul>
  );
}

export function Header() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const user = useAppSelector(selectUser);
  const { data: settings } = useGetSettingsQuery(undefined, { skip: !user || !needsRolePermissions(user) });
  const [menuOpen, setMenuOpen] = useState(false);
  const [changingPassword, setChangingPassword] = useState(false);
  const pending = useAppSelector(selectPendingCount);
  const [confirmingLogout, setConfirmingLogout] = useState(false);

  // Close the slide-out menu whenever the page changes.
  const [lastPath, setLastPath] = useState(location.pathname);
  if (lastPath !== location.pathname) {
    setLastPath(location.pathname);
    setMenuOpen(false);
  }

  useEffect(() => {
    if (!menuOpen) return undefined;
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === 'Escape') setMenuOpen(false);
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [menuOpen]);

  if (!user) return null;
  const items = visibleNavItems(user, settings?.rolePermissions);

  function logout() {
    setMenuOpen(false);
    // Accreditations waiting on the device stay there (docs/operations.md, "Offline till"); say so first.
    if (pending > 0 && !confirmingLogout) {
      setConfirmingLogout(true);
      return;
    }
    setConfirmingLogout(false);
    dispatch(loggedOut());
    navigate(paths.login, { replace: true });
  }

  const logo = user.company?.logoUrl;
  // Company users change their own password; not a super admin, nor one acting as the admin.
  const ownPassword = user.role !== 'super_admin' && !user.impersonatedBy;
  function changePassword() {
    setMenuOpen(false);
    setChangingPassword(true);
  }

  return (
    <header className="app-header">
      <div className="app-header-inner">
        <button
          type="button"
          className="icon-button mobile-only"
          onClick={() => setMenuOpen(true)}
          aria-label={t('nav.openMenu')}
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
        >
          <Bars3Icon aria-hidden="true" />
        </button>
        <NavLink to={items[0]?.path ?? paths.main} className="brand">
          {logo ? <img src={logo} alt="" className="brand-logo" /> : <SparklesIcon className="brand-icon" aria-hidden="true" />}
          <span className="brand-name">{user.company?.name ?? t('app.name')}</span>
        </NavLink>
        <nav className="app-nav desktop-only" aria-label={t('nav.main')}>
          <NavLinks items={items} />
        </nav>
        <div className="header-tools">
          <ThemeToggle />
          <LanguageMenu />
          <div className="desktop-only">
            <UserBadge user={user} />
          </div>
          {ownPassword ? (
            <button
              type="button"
              className="icon-button desktop-only"
              onClick={changePassword}
              aria-label={t('password.changeTitle')}
              title={t('password.changeTitle')}
            >
              <KeyIcon aria-hidden="true" />
            </button>
          ) : null}
          <button type="button" className="icon-button desktop-only" onClick={logout} aria-label={t('header.logout')} title={t('header.logout')}>
            <ArrowRightStartOnRectangleIcon aria-hidden="true" />
          </button>
        </div>
      </div>

      <div className={`mobile-menu-backdrop ${menuOpen ? 'open' : ''}`} onClick={() => setMenuOpen(false)} aria-hidden="true" />
      <aside
        id="mobile-menu"
        className={`mobile-menu ${menuOpen ? 'open' : ''}`}
        aria-label={t('nav.menu')}
        aria-hidden={!menuOpen}
        inert={!menuOpen}
      >
        <div className="mobile-menu-header">
          <UserBadge user={user} />
          <button type="button" className="icon-button" onClick={() => setMenuOpen(false)} aria-label={t('nav.closeMenu')}>
            <XMarkIcon aria-hidden="true" />
          </button>
        </div>
        <nav aria-label={t('nav.main')}>
          <NavLinks items={items} onNavigate={() => setMenuOpen(false)} />
        </nav>
        {ownPassword ? (
          <button type="button" className="btn btn-secondary btn-block" onClick={changePassword}>
            <KeyIcon aria-hidden="true" />
            {t('password.changeTitle')}
          </button>
        ) : null}
        <button type="button" className="btn btn-secondary btn-block" onClick={logout}>
          <ArrowRightStartOnRectangleIcon aria-hidden="true" />
          {t('header.logout')}
        </button>
      </aside>
      {confirmingLogout ? (
        <Suspense fallback={null}>
          <LogoutWarning pending={pending} onCancel={() => setConfirmingLogout(false)} onConfirm={logout} />
        </Suspense>
      ) : null}
      {ownPassword && changingPassword ? (
        <Suspense fallback={null}>
          <ChangePasswordDialog open onClose={() => setChangingPassword(false)} />
        </Suspense>
      ) : null}
    </header>
  );
}
