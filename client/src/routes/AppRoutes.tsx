import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { LoginPage } from '../features/auth/LoginPage';
import { paths } from '../lib/paths';
import { RequireSession, RouteGuard } from './guards';
import { pageRoutes, PublicNoticePage, redirectRoutes, settingsRoute, UNKNOWN_PATH_TARGET, type PageRoute } from './routeTable';

const { Layout: SettingsLayout } = settingsRoute;

// The signed-in shell (header, menus, banners) is a chunk of its own: the login screen does not
// wait for it (docs/performance.md, "Initial JavaScript"). Fetched as soon as the app has
// started, so that it is in by the time a login is submitted.
const layoutModule = () => import('../components/layout/AppLayout');
const AppLayout = lazy(() => layoutModule().then((m) => ({ default: m.AppLayout })));
export const prefetchLayout = () => void layoutModule();

/**
 * A page's route, the page behind the guard of its access. A function, not a component: <Routes>
 * reads the <Route> elements it is given.
 */
function guardedPageRoute({ path, access, Page }: PageRoute) {
  return (
    <Route
      key={path}
      path={path}
      element={
        <RouteGuard access={access}>
          <Page />
        </RouteGuard>
      }
    />
  );
}

export function AppRoutes() {
  return (
    <Routes>
      <Route path={paths.login} element={<LoginPage />} />
      <Route
        path={paths.publicPrivacy}
        element={
          <Suspense fallback={null}>
            <PublicNoticePage />
          </Suspense>
        }
      />
      {redirectRoutes.map(({ path, to }) => (
        <Route key={path} path={path} element={<Navigate to={to} replace />} />
      ))}
      <Route element={<RequireSession />}>
        <Route element={<AppLayout />}>
          {pageRoutes.map(guardedPageRoute)}
          <Route
            path={settingsRoute.path}
            element={
              <RouteGuard access={settingsRoute.access}>
                <SettingsLayout />
              </RouteGuard>
            }
          >
            <Route index element={<RouteGuard access={settingsRoute.indexAccess}>{null}</RouteGuard>} />
            {settingsRoute.children.map(guardedPageRoute)}
          </Route>
        </Route>
      </Route>
      <Route path="*" element={<Navigate to={UNKNOWN_PATH_TARGET} replace />} />
    </Routes>
  );
}
