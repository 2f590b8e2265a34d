// A small RFC 4180 CSV writer: CRLF line ends, fields quoted when they hold the separator, a quote
// or a line break (quotes doubled). The file starts with a UTF-8 byte order mark so spreadsheet
// programs read accents correctly. The separator and the decimal mark follow the reader's
// language, as Excel reads a CSV by the regional settings: Spanish (Colombia) ';' and a decimal
// comma, English ',' and a decimal point.

import type { Locale } from './format';

export type CsvValue = string | number | null | undefined;

/** How the reader's spreadsheet splits fields and writes decimals. */
export interface CsvFormat {
  separator: ',' | ';';
  decimal: '.' | ',';
}

export const CSV_COMMA: CsvFormat = { separator: ',', decimal: '.' };

/** The CSV format Excel expects under the language's regional settings. */
export function csvFormat(locale: Locale): CsvFormat {
  return locale === 'es' ? { separator: ';', decimal: ',' } : CSV_COMMA;
}
/** Text a spreadsheet would run as a formula (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

export interface CsvFieldOptions {
  /** What an absent value (null, undefined, '' or NaN) is written as. */
  missing?: string;
  /**
   * Treat the value as free text: text that a spreadsheet would take for a formula gets a leading
   * apostrophe. Leave it off for numbers (a negative number must stay a number).
   */
  text?: boolean;
  /** The separator and decimal mark (default: comma and point). */
  format?: CsvFormat;
}

export function csvField(value: CsvValue, { missing = '', text = false, format = CSV_COMMA }: CsvFieldOptions = {}): string {
  let out: string;
  if (value == null || (typeof value === 'number' && !Number.isFinite(value))) out = missing;
  else if (typeof value === 'number') out = String(value).replace('.', format.decimal);
  else out = value === '' ? missing : value;
  if (text && typeof value === 'string' && FORMULA_START.test(out)) out = `'${out}`;
  const needsQuotes = out.includes(format.separator) || /["\r\n]/.test(out);
  return needsQuotes ? `"${out.replace(/"/g, '""')}"` : out;
}

/** One CSV line per row; the fields must already be written with `csvField` in the same format. */
export function csvLines(rows: readonly (readonly string[])[], format: CsvFormat = CSV_COMMA): string {
  return rows.map((row) => row.join(format.separator)).join('\r\n') + '\r\n';
}

export const CSV_BOM = '\uFEFF';

/** Offers `content` to the user as a download named `filename`. */
export function downloadCsv(filename: string, content: string): void {
  const blob = new Blob([CSV_BOM, content], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the address goes away.
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}
