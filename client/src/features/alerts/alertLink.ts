// Each alert links to its rows in the transaction report (docs/points.md, "Alerts"): the report's
// filters as far as the alert's kind allows, in the report's address (lib/reportUrl.ts).

import { reportLink, type ReportUrlFilters } from '../../lib/reportUrl';
import type { Alert } from '../../lib/types';

/** The days a refund looks back for a redemption (`refundAfterRedemption`'s figure). */
const REFUND_LOOKBACK_DAYS = 7;

/** `day` (YYYY-MM-DD) moved by `days`. */
function shiftDay(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** The report's filters that show an alert's transactions. */
export function alertReportFilters(alert: Alert): Partial<ReportUrlFilters> {
  const customerId = alert.customerId != null ? String(alert.customerId) : '';
  switch (alert.kind) {
    case 'customerOperations':
      return { customerId, from: alert.day, to: alert.day };
    case 'cashierRepeats':
      return { customerId, cashier: alert.cashierUsername ?? '', type: 'accreditation', from: alert.day, to: alert.day };
    case 'refundAfterRedemption':
      // Earn, redeem, refund: the redemptions and accreditations of the week before the refund.
      return { customerId, from: shiftDay(alert.day, -REFUND_LOOKBACK_DAYS), to: alert.day };
    case 'invoiceReassigned':
      // The invoice's accreditations of every customer, on whatever day they were.
      return { invoiceReference: alert.invoiceReference ?? '' };
  }
}

/** The report's address showing an alert's transactions. */
export function alertReportLink(alert: Alert): string {
  return reportLink(alertReportFilters(alert));
}
