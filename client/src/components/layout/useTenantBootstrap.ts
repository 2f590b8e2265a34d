import { useEffect, useState } from 'react';
import { apiErrorStatus } from '../../app/api';
import { useAppDispatch } from '../../app/hooks';
import { isNetworkFailure } from '../../app/offline';
import { sessionEnded } from '../../app/session';
import { useGetCategoriesQuery, useGetPointsOfSaleQuery, useGetSettingsQuery } from '../../app/tenantApi';
import { toastShown } from '../../app/toasts';
import type { User } from '../../lib/types';

/**
 * Loads the tenant data of a company user (settings with role permissions, points of sale,
 * categories). A super admin who is not impersonating loads nothing here. If a load fails the
 * user is logged out (docs/screens.md, "Session"), unless no answer came at all: offline, the
 * shell opens with what this device kept (docs/operations.md, "Offline till").
 */
export function useTenantBootstrap(user: User): { loading: boolean } {
  const dispatch = useAppDispatch();
  const isSuperAdmin = user.role === 'super_admin';
  const hasCompany = user.companyId != null;
  const skip = isSuperAdmin || !hasCompany;

  const settings = useGetSettingsQuery(undefined, { skip });
  const pointsOfSale = useGetPointsOfSaleQuery(undefined, { skip });
  const categories = useGetCategoriesQuery(undefined, { skip });

  const error = settings.error ?? pointsOfSale.error ?? categories.error;
  const failed = settings.isError || pointsOfSale.isError || categories.isError;
  const notInCompany = !isSuperAdmin && !hasCompany;

  useEffect(() => {
    if (notInCompany) {
      dispatch(sessionEnded());
      dispatch(toastShown('error', { messageKey: 'common.errorNotInCompany' }));
    } else if (failed && apiErrorStatus(error) !== 401 && !isNetworkFailure(error)) {
      // A 401 already ended the session in the base query.
      dispatch(sessionEnded());
      dispatch(toastShown('error', { messageKey: 'common.errorLoadingData' }));
    }
  }, [notInCompany, failed, error, dispatch]);

  // Only the first load holds the page back: a later refetch (a page subscribing again to a
  // read that failed offline) must not unmount the page, or it would subscribe again, forever.
  const stillLoading = settings.isLoading || pointsOfSale.isLoading || categories.isLoading;
  const who = `${user.id}:${user.companyId ?? ''}:${user.impersonatedBy ?? ''}`;
  const [settledFor, setSettledFor] = useState<string | null>(null);
  if (!stillLoading && settledFor !== who) setSettledFor(who);
  return { loading: stillLoading && settledFor !== who };
}
