// The table of charts in docs/charts.md, generated from CHART_LIST so the page and the docs never
// tell two stories. The rest of docs/charts.md is written by hand; the table sits between two
// markers. Regenerate in place with:  npx tsx src/lessons/charts-doc.ts   (a test compares the two)

import { CHART_LIST } from './charts';

export const CHARTS_TABLE_START =
  '<!-- Generated from CHART_LIST (src/lessons/charts.ts) by chartsTable() in src/lessons/charts-doc.ts. Do not edit by hand: run `npx tsx src/lessons/charts-doc.ts`. A test fails when this table is out of date. -->';
export const CHARTS_TABLE_END = '<!-- end of the generated table -->';

const cell = (s: string): string => s.replace(/\|/g, '\\|');

/** The table, one row per chart in the dashboard's order. */
export function chartsTable(): string {
  const rows = CHART_LIST.map((c) => {
    const metrics: readonly string[] = c.metrics;
    const drawn = metrics.length ? metrics.map((m) => `\`${m}\``).join(', ') : '–';
    return `| \`${c.id}\` | ${cell(c.title)} | ${drawn} | ${cell(c.meaning)} |`;
  });
  return ['| id | title | metrics (metrics.jsonl) | what it shows |', '|---|---|---|---|', ...rows].join('\n');
}

/** `markdown` (docs/charts.md) with the generated table between its markers. */
export function withChartsTable(markdown: string): string {
  const start = markdown.indexOf(CHARTS_TABLE_START);
  const end = markdown.indexOf(CHARTS_TABLE_END);
  if (start < 0 || end < start) throw new Error("docs/charts.md: the generated table's markers are missing");
  return `${markdown.slice(0, start)}${CHARTS_TABLE_START}\n\n${chartsTable()}\n\n${markdown.slice(end)}`;
}

// Run as a script: rewrite docs/charts.md's table in place (no effect when imported).
const argv1 = typeof process !== 'undefined' ? process.argv?.[1] : undefined;
if (argv1 && import.meta.url.endsWith(argv1.replace(/\\/g, '/'))) {
  void import('node:fs').then(({ readFileSync, writeFileSync }) => {
    const file = new URL('../../docs/charts.md', import.meta.url);
    writeFileSync(file, withChartsTable(readFileSync(file, 'utf8')));
  });
}
