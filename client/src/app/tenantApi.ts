// Tenant data every company screen relies on: the settings (with the role permissions the route
// guards need), the points of sale and the categories. Loaded right after login.

import type { Category, PointOfSale, Settings } from '../lib/types';
import { api, type ApiError } from './api';
import { isNetworkFailure, readOfflineCopy, saveOfflineCopy } from './offline';
import type { SessionState } from './session';
import { listQuery } from './entityEndpoints';

export const tenantApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The settings; with no connection, the last copy this device received for this user (the offline shell). */
    getSettings: build.query<Settings, void>({
      async queryFn(_arg, queryApi, _extra, baseQuery) {
        const user = (queryApi.getState() as { session: SessionState }).session.user;
        const copyKey = `settings.${user?.companyId ?? ''}.${user?.id ?? ''}`;
        const result = await baseQuery('/settings');
        if (!result.error) {
          saveOfflineCopy(copyKey, result.data);
          return { data: result.data as Settings };
        }
        const copy = isNetworkFailure(result.error) ? readOfflineCopy<Settings>(copyKey) : undefined;
        return copy ? { data: copy } : { error: result.error as ApiError };
      },
      providesTags: [{ type: 'Settings', id: 'CURRENT' }],
    }),
    getPointsOfSale: listQuery<PointOfSale>(build, '/pos', 'Pos'),
    getCategories: listQuery<Category>(build, '/categories', 'Category'),
    /** The caller's own password; the answer's token replaces the session's (the others end). */
    changeOwnPassword: build.mutation<{ message: string; token: string }, { currentPassword: string; newPassword: string }>({
      query: (body) => ({ url: '/me/password', method: 'POST', body }),
    }),
  }),
});

export const { useGetSettingsQuery, useGetPointsOfSaleQuery, useGetCategoriesQuery, useChangeOwnPasswordMutation } = tenantApi;
