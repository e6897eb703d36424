// Plain-text tables for benchmark reports: columns padded to their widest cell, numbers
// right-aligned, text left-aligned.

export type Cell = string | number | null | undefined;
/** A table's body: one array of cells per row, in the headers' order. */
export type Rows = readonly (readonly Cell[])[];

export interface TableOptions {
  /** Digits after the point for numbers that are not integers (default 2). */
  digits?: number;
}

export function formatNumber(x: number, digits = 2): string {
  if (!Number.isFinite(x)) return String(x);
  if (Number.isInteger(x)) return x.toLocaleString('en-US');
  const abs = Math.abs(x);
  // keep `digits` significant digits for small values instead of printing 0.00
  if (abs > 0 && abs < 1) return x.toPrecision(Math.max(1, digits));
  return x.toFixed(digits);
}

/** Three significant digits (at least), for measured values: 0.0660, 1.29, 12.3, 226.1, 1954. */
export function sig3(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const abs = Math.abs(x);
  if (abs >= 1000) return Math.round(x).toString();
  if (abs >= 100) return x.toFixed(1);
  if (abs >= 10) return x.toFixed(2);
  if (abs >= 1) return x.toFixed(2);
  return x.toPrecision(3);
}

const NUMERIC = /^[-+−]?[\d,]*\.?\d+(e[-+]?\d+)?[×%]?$/;

function isNumericCell(c: Cell): boolean {
  return c === null || c === undefined || typeof c === 'number' || NUMERIC.test(c);
}

function cellText(c: Cell, digits: number): string {
  if (c === null || c === undefined) return '–';
  if (typeof c === 'number') return formatNumber(c, digits);
  return c;
}

/** The cells as text in the headers' order, and which columns are numeric (right-aligned): what both table kinds lay out. */
function tableText(
  headers: readonly string[],
  rows: Rows,
  opts: TableOptions,
): { text: string[][]; numeric: boolean[] } {
  const digits = opts.digits ?? 2;
  return {
    text: rows.map((r) => headers.map((_, i) => cellText(r[i], digits))),
    numeric: headers.map((_, i) => rows.length > 0 && rows.every((r) => isNumericCell(r[i]))),
  };
}

export function formatTable(headers: readonly string[], rows: Rows, opts: TableOptions = {}): string {
  const { text, numeric } = tableText(headers, rows, opts);
  const width = headers.map((h, i) => Math.max(h.length, ...text.map((r) => r[i].length)));
  const pad = (s: string, i: number) => (numeric[i] ? s.padStart(width[i]) : s.padEnd(width[i]));
  const line = (cells: string[]) => cells.map(pad).join('  ').trimEnd();
  return [line([...headers]), line(width.map((w) => '─'.repeat(w))), ...text.map(line)].join('\n');
}

/** A GitHub-flavoured Markdown table (for docs/benchmarks.md). */
export function markdownTable(headers: readonly string[], rows: Rows, opts: TableOptions = {}): string {
  const { text, numeric } = tableText(headers, rows, opts);
  const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [row(headers), row(headers.map((_, i) => (numeric[i] ? '---:' : '---'))), ...text.map(row)].join('\n');
}
