// The CSV export of the report (docs/screens.md, "Printouts and exports"): reporte_fidelidad.csv
// with transaction id, date, cashier, pos, customer document, customer name, type, description,
// points, invoice amount, redeemed value and who approved the row (a supervisor's approval of an
// accreditation beyond a velocity limit, of a cajero's void or return); a missing value is written
// N/A and a missing cashier 'system'. After the rows, the totals of every exported row, returns
// as figures of their own. Separator and decimal mark follow
// the reader's language.

import { CSV_COMMA, csvField, csvLines, type CsvFormat } from '../../lib/csv';
import type { Transaction, TransactionType } from '../../lib/types';
import type { ReportTotals } from './reportsApi';

export const CSV_FILENAME = 'reporte_fidelidad.csv';
export const CSV_MISSING = 'N/A';
export const CSV_SYSTEM = 'system';

export interface CsvLabels {
  /** The 12 column titles, in order. */
  headers: readonly string[];
  type: (type: TransactionType) => string;
  /** What the row is, in the reader's language (`transactionDescription`). */
  description: (transaction: Transaction) => string;
  /** Separator and decimal mark (default: comma and point). */
  format?: CsvFormat;
  /** The totals block after the rows: its title and a label per figure. */
  totals?: { title: string; labels: Record<keyof ReportTotals, string> };
}

export const TOTAL_FIGURES: readonly (keyof ReportTotals)[] = [
  'pointsAccredited',
  'pointsRedeemed',
  'invoiceAmount',
  'redeemedValue',
  'pointsReturned',
  'returnedAmount',
];

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** Local date and time on a 24-hour clock, sortable: 2026-03-09 14:05:00. */
export function csvDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

export function transactionCsvRow(transaction: Transaction, labels: CsvLabels): string[] {
  const format = labels.format ?? CSV_COMMA;
  const text = (value: string | null | undefined) => csvField(value?.trim(), { missing: CSV_MISSING, text: true, format });
  const number = (value: number | null | undefined) => csvField(value, { missing: CSV_MISSING, format });
  return [
    number(transaction.id),
    csvField(csvDate(transaction.date), { missing: CSV_MISSING, format }),
    csvField(transaction.cashierUsername?.trim(), { missing: CSV_SYSTEM, text: true, format }),
    text(transaction.posName),
    text(transaction.customerDocument),
    text(transaction.customerName),
    text(labels.type(transaction.type)),
    text(labels.description(transaction)),
    number(transaction.points),
    number(transaction.invoiceAmount),
    number(transaction.redeemedValue),
    text(transaction.approvedBy),
  ];
}

/** The whole file (without the byte order mark that downloadCsv adds); `totals` after the rows. */
export function transactionsCsv(transactions: readonly Transaction[], labels: CsvLabels, totals?: ReportTotals): string {
  const format = labels.format ?? CSV_COMMA;
  const rows = [
    labels.headers.map((header) => csvField(header, { text: true, format })),
    ...transactions.map((transaction) => transactionCsvRow(transaction, labels)),
  ];
  if (totals && labels.totals) {
    rows.push([], [csvField(labels.totals.title, { text: true, format })]);
    for (const figure of TOTAL_FIGURES) {
      rows.push([csvField(labels.totals.labels[figure], { text: true, format }), csvField(totals[figure], { format })]);
    }
  }
  return csvLines(rows, format);
}
