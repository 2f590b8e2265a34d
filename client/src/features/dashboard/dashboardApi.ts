// The dashboard's figures: GET /api/stats/dashboard (points module of the server).

import { api } from '../../app/api';

export interface DailyPoints {
  /** Local day, YYYY-MM-DD. */
  date: string;
  accredited: number;
  redeemed: number;
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
  /** The last 30 days, oldest first. */
  daily: DailyPoints[];
  liability?: Liability;
}

export const dashboardApi = api.injectEndpoints({
  endpoints: (build) => ({
    getDashboardStats: build.query<DashboardStats, void>({
      query: () => '/stats/dashboard',
      providesTags: [{ type: 'Stats', id: 'DASHBOARD' }],
    }),
  }),
});

export const { useGetDashboardStatsQuery } = dashboardApi;
