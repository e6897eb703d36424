// Cayley tables: the true table of a group, and the policy's learned one beside it.
// Row a, column x holds a·x (right action: apply a, then x). Each element has its own light
// hue; in the learned table the hue fades toward white as the argmax probability falls, and a
// cell whose argmax differs from the truth is outlined. Groups larger than DENSE_ORDER (A5,
// S5) are drawn as a block of small squares instead, a wrong one filled with ink.

import type { LearnedTable } from '../../worker/protocol';
import type { TableProbe } from '../../tasks/types';
import { categoricalRgb, css, mix, textOn, WHITE, type Rgb } from './colour';

const NON_ELEMENT: Rgb = [160, 160, 170];

export interface CayleyTableViewProps {
  /** The task's table (Task.tableProbe): its labels and right answers. */
  probe: Pick<TableProbe, 'labels' | 'truth'>;
  /** What the table is of, e.g. the group's name. */
  title: string;
}

export interface LearnedTableViewProps {
  table: LearnedTable;
  /** Display names of the elements (index = element id); the token strings without them. */
  names?: readonly string[];
}

/** One cell: element index (−1: not an element), probability (1 for the true table), and whether it is wrong. */
export interface TableCell {
  element: number;
  prob: number;
  wrong: boolean;
}

/** Background of a cell: the element's hue mixed with white by (1 − prob); grey for a non-element. */
export function cellRgb(element: number, n: number, prob: number): Rgb {
  return mix(WHITE, element >= 0 ? categoricalRgb(element, n) : NON_ELEMENT, prob);
}

/** Cells of the learned table, and how many agree with the truth. */
export function learnedCells(t: LearnedTable): { cells: TableCell[][]; agree: number } {
  let agree = 0;
  const cells = t.argmax.map((row, a) =>
    row.map((element, x) => {
      const wrong = element !== t.truth[a][x];
      if (!wrong) agree++;
      return { element, prob: t.prob[a][x], wrong };
    }),
  );
  return { cells, agree };
}

const TH = { padding: '1px 4px', color: '#556', fontWeight: 'normal' as const, fontFamily: 'monospace' };

/** What both table drawings take: element names, the n×n cells, the caption and the test id. */
interface GridProps {
  names: readonly string[];
  cells: TableCell[][];
  caption: string;
  testId: string;
}

function TableGrid({ names, cells, caption, testId }: GridProps) {
  const n = names.length;
  const name = (e: number): string => (e >= 0 ? names[e] : '?');
  return (
    <table data-testid={testId} style={{ borderCollapse: 'separate', borderSpacing: 1, fontSize: n > 12 ? 9 : 11 }}>
      <caption style={{ fontSize: 12, textAlign: 'left' }}>{caption}</caption>
      <thead>
        <tr>
          <th style={TH}>a·x</th>
          {names.map((x) => (
            <th key={x} style={TH}>
              {x}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {cells.map((row, a) => (
          <tr key={a}>
            <th style={TH}>{names[a]}</th>
            {row.map((c, x) => {
              const rgb = cellRgb(c.element, n, c.prob);
              return (
                <td
                  key={x}
                  data-testid="table-cell"
                  data-wrong={c.wrong ? 'true' : 'false'}
                  title={`${names[a]} · ${names[x]} → ${name(c.element)}${c.prob < 1 ? ` (p ${c.prob.toFixed(3)})` : ''}${c.wrong ? ' — wrong' : ''}`}
                  style={{
                    background: css(rgb),
                    color: textOn(rgb),
                    fontFamily: 'monospace',
                    textAlign: 'center',
                    padding: '1px 3px',
                    // Dark ink, not red: red means a negative advantage everywhere else.
                    outline: c.wrong ? '2px solid #111827' : undefined,
                    outlineOffset: -2,
                  }}
                >
                  {name(c.element)}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Past this order a table of names does not fit a side panel: it is drawn as squares. */
export const DENSE_ORDER = 24;

/** A large group's table as an n×n block of small squares: the element's hue (faded by probability), ink where wrong. */
function DenseGrid({ names, cells, caption, testId }: GridProps) {
  const n = names.length;
  const cell = Math.max(2, Math.floor(240 / n)); // px: 4 for A5, 2 for S5
  const name = (e: number): string => (e >= 0 ? names[e] : '?');
  return (
    <figure data-testid={testId} data-dense="true" style={{ margin: 0 }}>
      <figcaption style={{ fontSize: 12 }}>{caption}</figcaption>
      <svg
        width={n * cell}
        height={n * cell}
        role="img"
        aria-label={caption}
        style={{ display: 'block', marginTop: 2 }}
      >
        {cells.map((row, a) =>
          row.map((c, x) => (
            <rect
              key={`${a},${x}`}
              x={x * cell}
              y={a * cell}
              width={cell}
              height={cell}
              data-testid="table-cell"
              data-wrong={c.wrong ? 'true' : 'false'}
              // Dark ink, not red: red means a negative advantage everywhere else.
              fill={c.wrong ? '#111827' : css(cellRgb(c.element, n, c.prob))}
            >
              <title>{`${names[a]} · ${names[x]} → ${name(c.element)}${c.prob < 1 ? ` (p ${c.prob.toFixed(3)})` : ''}${c.wrong ? ' — wrong' : ''}`}</title>
            </rect>
          )),
        )}
      </svg>
    </figure>
  );
}

function Grid(props: { names: readonly string[]; cells: TableCell[][]; caption: string; testId: string }) {
  return props.names.length > DENSE_ORDER ? <DenseGrid {...props} /> : <TableGrid {...props} />;
}

function trueCells(table: readonly (readonly number[])[]): TableCell[][] {
  return table.map((row) => row.map((element) => ({ element, prob: 1, wrong: false })));
}

export function CayleyTableView({ probe, title }: CayleyTableViewProps) {
  return (
    <Grid testId="cayley-table" names={probe.labels} cells={trueCells(probe.truth)} caption={`${title}: true table`} />
  );
}

export function LearnedTableView({ table, names = table.elements }: LearnedTableViewProps) {
  const { cells, agree } = learnedCells(table);
  const total = table.elements.length ** 2;
  return (
    <div data-testid="learned-table" style={{ display: 'flex', gap: 16, flexWrap: 'wrap', alignItems: 'flex-start' }}>
      <Grid
        testId="learned-grid"
        names={names}
        cells={cells}
        caption={
          names.length > DENSE_ORDER
            ? `learned (a square per product: shade = probability, dark = wrong; hover for names): ${agree}/${total} right`
            : `learned (shade = probability, outlined = wrong): ${agree}/${total} right`
        }
      />
      <Grid testId="truth-grid" names={names} cells={trueCells(table.truth)} caption="true table" />
    </div>
  );
}
