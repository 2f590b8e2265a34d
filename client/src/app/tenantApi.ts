// Tenant data every company screen relies on: the settings (with the role permissions the route
// guards need), the points of sale and the categories. Loaded right after login.

import type { Category, PointOfSale, Settings } from '../lib/types';
import { api } from './api';
import { listQuery } from './entityEndpoints';

export const tenantApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSettings: build.query<Settings, void>({
      query: () => '/settings',
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
