// Tenant data every company screen relies on: the settings (with the role permissions the route
// guards need), the points of sale and the categories. Loaded right after login.

import type { Category, PointOfSale, Settings } from '../lib/types';
import { api, listTags } from './api';

export const tenantApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSettings: build.query<Settings, void>({
      query: () => '/settings',
      providesTags: [{ type: 'Settings', id: 'CURRENT' }],
    }),
    getPointsOfSale: build.query<PointOfSale[], void>({
      query: () => '/pos',
      providesTags: (result) => listTags('Pos', result),
    }),
    getCategories: build.query<Category[], void>({
      query: () => '/categories',
      providesTags: (result) => listTags('Category', result),
    }),
  }),
});

export const { useGetSettingsQuery, useGetPointsOfSaleQuery, useGetCategoriesQuery } = tenantApi;
