import { Navigate, Route, Routes } from 'react-router-dom';
import { AppLayout } from '../components/layout/AppLayout';
import { LoginPage } from '../features/auth/LoginPage';
import { paths } from '../lib/paths';
import { RequireSession, RouteGuard } from './guards';
import { pageRoutes, redirectRoutes, settingsRoute, UNKNOWN_PATH_TARGET } from './routeTable';

const { Layout: SettingsLayout } = settingsRoute;

export function AppRoutes() {
  return (
    <Routes>
      <Route path={paths.login} element={<LoginPage />} />
      {redirectRoutes.map(({ path, to }) => (
        <Route key={path} path={path} element={<Navigate to={to} replace />} />
      ))}
      <Route element={<RequireSession />}>
        <Route element={<AppLayout />}>
          {pageRoutes.map(({ path, access, Page }) => (
            <Route
              key={path}
              path={path}
              element={
                <RouteGuard access={access}>
                  <Page />
                </RouteGuard>
              }
            />
          ))}
          <Route
            path={settingsRoute.path}
            element={
              <RouteGuard access={settingsRoute.access}>
                <SettingsLayout />
              </RouteGuard>
            }
          >
            <Route index element={<RouteGuard access={settingsRoute.indexAccess}>{null}</RouteGuard>} />
            {settingsRoute.children.map(({ path, access, Page }) => (
              <Route
                key={path}
                path={path}
                element={
                  <RouteGuard access={access}>
                    <Page />
                  </RouteGuard>
                }
              />
            ))}
          </Route>
        </Route>
      </Route>
      <Route path="*" element={<Navigate to={UNKNOWN_PATH_TARGET} replace />} />
    </Routes>
  );
}
