// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { Alert } from '../../lib/types';
import { alertReportLink } from './alertLink';

function makeAlert(overrides: Partial<Alert>): Alert {
  return {
    id: 1,
    kind: 'customerOperations',
    day: '2026-03-09',
    detectedAt: '2026-03-09T20:00:00Z',
    occurrences: 6,
    status: 'new',
    transactionIds: [1, 2],
    customerId: 42,
    customerName: 'Ana',
    customerDocument: '1020',
    ...overrides,
  };
}

describe('an alert’s link to the report', () => {
  it('shows a customer’s operations of the day', () => {
    expect(alertReportLink(makeAlert({}))).toBe('/reportes?customerId=42&from=2026-03-09&to=2026-03-09');
  });

  it('shows one cashier’s accreditations of the customer that day', () => {
    expect(alertReportLink(makeAlert({ kind: 'cashierRepeats', cashierUsername: 'caja1' }))).toBe(
      '/reportes?type=accreditation&cashier=caja1&customerId=42&from=2026-03-09&to=2026-03-09',
    );
  });

  it('shows the customer’s week before a refund after a redemption', () => {
    expect(alertReportLink(makeAlert({ kind: 'refundAfterRedemption', day: '2026-03-03' }))).toBe(
      '/reportes?customerId=42&from=2026-02-24&to=2026-03-03',
    );
  });

  it('shows every row of a reassigned invoice, whoever and whenever', () => {
    expect(alertReportLink(makeAlert({ kind: 'invoiceReassigned', invoiceReference: 'FAC 9' }))).toBe(
      '/reportes?invoiceReference=FAC+9',
    );
  });
});
