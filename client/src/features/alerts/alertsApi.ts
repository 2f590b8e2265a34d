// Alerts: GET /api/alerts (paged, by status and kind), GET /api/alerts/count, PUT /api/alerts/{id}
// (mark reviewed) and GET /api/alerts/{id}/transactions (docs/points.md, "Alerts").

import { api } from '../../app/api';
import type { Alert, AlertCount, AlertKind, AlertPage, AlertStatus, Transaction } from '../../lib/types';

export interface AlertQuery {
  status: AlertStatus | '';
  kind: AlertKind | '';
  page: number;
  pageSize: number;
}

export const ALERT_KINDS: readonly AlertKind[] = [
  'customerOperations',
  'cashierRepeats',
  'refundAfterRedemption',
  'invoiceReassigned',
];

export const alertsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAlerts: build.query<AlertPage, AlertQuery>({
      query: ({ status, kind, page, pageSize }) => ({
        url: '/alerts',
        params: { page, pageSize, ...(status ? { status } : {}), ...(kind ? { kind } : {}) },
      }),
      providesTags: (result) => [
        { type: 'Alert', id: 'LIST' },
        ...(result?.items ?? []).map((alert) => ({ type: 'Alert' as const, id: alert.id })),
      ],
    }),
    getAlertCount: build.query<AlertCount, void>({
      query: () => '/alerts/count',
      providesTags: [{ type: 'Alert', id: 'COUNT' }],
    }),
    getAlertTransactions: build.query<Transaction[], number>({
      query: (id) => `/alerts/${id}/transactions`,
    }),
    reviewAlert: build.mutation<Alert, { id: number; status: AlertStatus }>({
      query: ({ id, status }) => ({ url: `/alerts/${id}`, method: 'PUT', body: { id, status } }),
      invalidatesTags: (_result, _error, { id }) => [
        { type: 'Alert', id },
        { type: 'Alert', id: 'LIST' },
        { type: 'Alert', id: 'COUNT' },
      ],
    }),
  }),
});

export const { useGetAlertsQuery, useGetAlertCountQuery, useGetAlertTransactionsQuery, useReviewAlertMutation } =
  alertsApi;
