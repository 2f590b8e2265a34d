import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useAppSelector } from '../app/hooks';
import { selectUser } from '../app/session';
import { useGetSettingsQuery } from '../app/tenantApi';
import { AccessDenied } from '../components/AccessDenied';
import { decideAccess, needsRolePermissions, type RouteAccess } from '../lib/access';
import { paths } from '../lib/paths';

/** Where the login screen sends the user back to. */
export interface LoginRedirectState {
  from?: { pathname: string; search?: string; hash?: string };
}

/** Nobody logged in: go to /login and remember the requested location. */
export function RequireSession() {
  const user = useAppSelector(selectUser);
  const location = useLocation();
  if (!user) {
    const state: LoginRedirectState = {
      from: { pathname: location.pathname, search: location.search, hash: location.hash },
    };
    return <Navigate to={paths.login} replace state={state} />;
  }
  return <Outlet />;
}

/** Applies a route's access rule: render, redirect, or the 'Acceso Denegado' screen. */
export function RouteGuard({ access, children }: { access: RouteAccess; children: ReactNode }) {
  const user = useAppSelector(selectUser);
  const { data: settings } = useGetSettingsQuery(undefined, { skip: !user || !needsRolePermissions(user) });
  if (!user) return <Navigate to={paths.login} replace />;

  const decision = decideAccess(access, user, settings?.rolePermissions);
  switch (decision.kind) {
    case 'allow':
      return <>{children}</>;
    case 'redirect':
      return <Navigate to={decision.to} replace />;
    case 'denied':
      return <AccessDenied />;
    case 'pending':
      // The layout shows the loading overlay while the settings load.
      return null;
  }
}
