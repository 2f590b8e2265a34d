// The dashboard's figures: GET /api/stats/dashboard (points module of the server), and the
// admin's set-up checklist: GET /api/settings/setup.

import { api } from '../../app/api';

export interface DailyPoints {
  /** Local day, YYYY-MM-DD. */
  date: string;
  accredited: number;
  redeemed: number;
  /** Points taken back by the day's returns (of accreditations not voided). */
  returned: number;
}

/** What the company owes its customers: the points held and their peso value. */
export interface Liability {
  outstandingPoints: number;
  value: number;
}

export interface DashboardStats {
  totalCustomers: number;
  pointsInCirculation: number;
  transactionsLast30Days: number;
  pointsAccreditedLast30Days: number;
  pointsRedeemedLast30Days?: number;
  /** Points taken back by returns in the last 30 days, a figure of its own. */
  pointsReturnedLast30Days?: number;
  /** The last 30 days, oldest first. */
  daily: DailyPoints[];
  liability?: Liability;
}

/** What a company still has to set up (GET /api/settings/setup, admin only). */
export interface SetupProgress {
  /** Points per peso and the redemption rate are set: the till can accredit and redeem. */
  rules: boolean;
  pointsOfSale: number;
  users: number;
  products: number;
}

export const dashboardApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSetupProgress: build.query<SetupProgress, void>({
      query: () => '/settings/setup',
      providesTags: [
        { type: 'Settings', id: 'CURRENT' },
        { type: 'Pos', id: 'LIST' },
        { type: 'User', id: 'LIST' },
        { type: 'Product', id: 'LIST' },
      ],
    }),
    getDashboardStats: build.query<DashboardStats, void>({
      query: () => '/stats/dashboard',
      providesTags: [{ type: 'Stats', id: 'DASHBOARD' }],
    }),
  }),
});

export const { useGetDashboardStatsQuery, useGetSetupProgressQuery } = dashboardApi;
