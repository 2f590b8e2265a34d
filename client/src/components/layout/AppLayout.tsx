import { Suspense } from 'react';
import { Navigate, Outlet } from 'react-router-dom';
import { useAppSelector } from '../../app/hooks';
import { selectToken, selectUser } from '../../app/session';
import { paths } from '../../lib/paths';
import { LoadingOverlay } from '../LoadingOverlay';
import { Footer } from './Footer';
import { Header } from './Header';
import { ImpersonationBanner } from './ImpersonationBanner';
import { OfflineBanner } from './OfflineBanner';
import { useTenantBootstrap } from './useTenantBootstrap';
import type { User } from '../../lib/types';

function LayoutFrame({ user }: { user: User }) {
  const token = useAppSelector(selectToken);
  const { loading } = useTenantBootstrap(user);
  return (
    <div className="app-shell">
      <ImpersonationBanner />
      <Header />
      <OfflineBanner />
      {/* Keyed by the token: a new session (login, impersonation, exit) starts its pages afresh. */}
      <main className="app-main" key={token ?? ''}>
        {loading ? null : (
          <Suspense fallback={<LoadingOverlay />}>
            <Outlet />
          </Suspense>
        )}
      </main>
      <Footer />
      {loading ? <LoadingOverlay /> : null}
    </div>
  );
}

/** The shared layout of every logged-in screen: banner, header, page, footer, loading overlay. */
export function AppLayout() {
  const user = useAppSelector(selectUser);
  if (!user) return <Navigate to={paths.login} replace />;
  return <LayoutFrame user={user} />;
}
