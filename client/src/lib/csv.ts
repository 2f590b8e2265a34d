// A small RFC 4180 CSV writer: comma separated, CRLF line ends, fields quoted when they hold a
// comma, a quote or a line break (quotes doubled). The file starts with a UTF-8 byte order mark so
// spreadsheet programs read accents correctly.

export type CsvValue = string | number | null | undefined;

const NEEDS_QUOTES = /[",\r\n]/;
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
}

export function csvField(value: CsvValue, { missing = '', text = false }: CsvFieldOptions = {}): string {
  let out: string;
  if (value == null || (typeof value === 'number' && !Number.isFinite(value))) out = missing;
  else if (typeof value === 'number') out = String(value);
  else out = value === '' ? missing : value;
  if (text && typeof value === 'string' && FORMULA_START.test(out)) out = `'${out}`;
  return NEEDS_QUOTES.test(out) ? `"${out.replace(/"/g, '""')}"` : out;
}

/** One CSV line per row; the fields must already be written with `csvField`. */
export function csvLines(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => row.join(',')).join('\r\n') + '\r\n';
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
