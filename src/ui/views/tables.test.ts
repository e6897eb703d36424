import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { getGroup } from '../../tasks/groupmul';
import { getTask } from '../../tasks/registry';
import { parseParams } from '../../tasks/params';
import type { LearnedTable } from '../../worker/protocol';
import { CayleyTableView, LearnedTableView, cellRgb, learnedCells } from './CayleyTable';
import { categoricalRgb, WHITE } from './colour';

const count = (html: string, needle: string): number => html.split(needle).length - 1;

function tableFor(name: string, corrupt: [number, number, number][]): LearnedTable {
  const g = getGroup(name);
  const argmax = g.table.map((row) => [...row]);
  for (const [a, x, e] of corrupt) argmax[a][x] = e;
  return {
    elements: [...g.elementNames],
    argmax,
    prob: argmax.map((row, a) => row.map((_, x) => 0.5 + 0.5 * ((a + x) % 2))),
    truth: g.table.map((row) => [...row]),
  };
}

describe('Cayley tables', () => {
  it('learned cells: agreement count and wrong flags', () => {
    const t = tableFor('S3', [
      [1, 2, 0],
      [4, 4, -1],
    ]);
    const { cells, agree } = learnedCells(t);
    expect(agree).toBe(34);
    expect(cells[1][2].wrong).toBe(true);
    expect(cells[4][4]).toEqual({ element: -1, prob: 0.5, wrong: true });
    expect(cells[0][0].wrong).toBe(false);
  });

  it('cell colour: the element hue at probability 1, white at 0', () => {
    expect(cellRgb(3, 6, 1)).toEqual(categoricalRgb(3, 6));
    expect(cellRgb(3, 6, 0)).toEqual(WHITE);
  });

  it("the true table shows the group's products", () => {
    const groupmul = getTask('groupmul');
    const probe = groupmul.tableProbe?.(parseParams(groupmul, { group: 'Q8', layout: 'interleaved', length: 3 }));
    if (!probe) throw new Error('groupmul has a table at an interleaved layout');
    const html = renderToString(createElement(CayleyTableView, { probe, title: 'Q8' }));
    expect(count(html, 'data-testid="table-cell"')).toBe(64);
    expect(count(html, 'data-wrong="true"')).toBe(0);
    expect(html).toContain('i · j → k'); // Hamilton: i·j = k
  });

  it('the learned table sits beside the truth with wrong cells outlined', () => {
    const html = renderToString(
      createElement(LearnedTableView, {
        table: tableFor('S3', [
          [1, 2, 0],
          [4, 4, -1],
        ]),
      }),
    );
    expect(count(html, 'data-testid="learned-table"')).toBe(1);
    expect(count(html, 'data-testid="table-cell"')).toBe(72);
    expect(count(html, 'data-wrong="true"')).toBe(2);
    expect(count(html, 'outline:2px solid')).toBe(2);
    expect(html).toContain('34/36 right');
  });

  it('a group past 24 elements (A5) is drawn as squares, wrong ones in ink, names on hover', () => {
    const a5 = getGroup('A5').table;
    const html = renderToString(
      createElement(LearnedTableView, {
        table: tableFor('A5', [
          [1, 2, (a5[1][2] + 1) % 60],
          [4, 4, -1],
        ]),
      }),
    );
    expect(count(html, 'data-dense="true"')).toBe(2);
    expect(count(html, '<td')).toBe(0);
    expect(count(html, 'data-testid="table-cell"')).toBe(2 * 3600);
    expect(count(html, 'data-wrong="true"')).toBe(2);
    expect(count(html, 'fill="#111827"')).toBe(2);
    expect(html).toContain('3598/3600 right');
    expect(html).toContain('width="240"'); // 4 px a square
    // The products a hover names are the group's: row 0 is the identity, so 0·x = x.
    const g = getGroup('A5');
    expect(g.table[0][7]).toBe(7);
    expect(html).toContain(`<title>${g.elementNames[0]} · ${g.elementNames[7]} → ${g.elementNames[7]}</title>`);
  });
});
