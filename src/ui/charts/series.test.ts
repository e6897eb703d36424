import { describe, expect, it } from 'vitest';
import {
  emptyStateTop,
  evenTickCount,
  fitText,
  rightMargin,
  pickX,
  yAxisWidth,
  plotRows,
  spacedLabels,
  textWidth,
  tickCount,
  type PlotSeries,
} from './series';

function series(id: string, xy: [number, number][], extra: Partial<PlotSeries> = {}): PlotSeries {
  return { id, label: id, color: '#000', points: xy.map(([x, y]) => ({ x, y })), ...extra };
}

describe('plotRows', () => {
  it('puts every series in one table by x, absent where a series has no point', () => {
    const rows = plotRows([
      series('a', [
        [0, 0.1],
        [10, 0.2],
      ]),
      series(
        'b',
        [
          [5, 1],
          [10, NaN],
        ],
        { band: [{ x: 5, lo: 0.5, hi: 1.5 }] },
      ),
    ]);
    expect(rows).toEqual([
      { x: 0, v0: 0.1 },
      { x: 5, v1: 1, b1: [0.5, 1.5] },
      { x: 10, v0: 0.2 },
    ]);
    expect(plotRows([])).toEqual([]);
  });
});

describe('pickX', () => {
  const faint = series(
    'ref',
    [
      [0, 0.5],
      [1, 0.5],
      [2, 0.5],
    ],
    { opacity: 0.3 },
  );
  const main = series('main', [
    [0, 0],
    [10, 0.5],
    [20, 1],
  ]);
  it('picks the nearest x of the first non-faint series', () => {
    expect(pickX([faint, main], 1.2)).toBe(0);
    expect(pickX([faint, main], 6)).toBe(10);
    expect(pickX([faint], 1.2)).toBe(1); // only faint ones: still something to pick
    expect(pickX([], 3)).toBeNull();
    expect(pickX([series('empty', []), main], 19)).toBe(20);
  });
});

describe('tickCount', () => {
  it('asks for one tick per few em of text, within [2, most]', () => {
    expect(tickCount(500, 12, 5, 7)).toBe(7);
    expect(tickCount(180, 12, 5, 7)).toBe(4);
    expect(tickCount(180, 16, 5, 7)).toBe(3);
    expect(tickCount(10, 16, 5, 7)).toBe(2);
  });
});

describe('spacedLabels', () => {
  it('shows labels that do not overlap the previous shown one', () => {
    expect(spacedLabels([0, 10, 50, 55, 100], [20, 20, 20, 20, 20])).toEqual([true, false, true, false, true]);
  });
});

describe('fitText', () => {
  it('cuts a title longer than its axis with an ellipsis', () => {
    expect(fitText('reward', 1000, 12)).toBe('reward');
    const cut = fitText('entropy per token', 100, 16);
    expect(cut.endsWith('…')).toBe(true);
    expect(textWidth(cut, 16)).toBeLessThanOrEqual(100);
  });

  it('drops a bracketed tail before it cuts the word itself', () => {
    const full = 'reward (0–1)';
    expect(fitText(full, textWidth(full, 16), 16)).toBe(full);
    expect(fitText(full, textWidth(full, 16) - 1, 16)).toBe('reward');
    const cut = fitText('entropy (nats/token)', textWidth('entropy', 16) - 1, 16);
    expect(cut).toMatch(/^entr.*…$/);
  });
});

describe('yAxisWidth', () => {
  it('grows with the widest tick label and the font', () => {
    expect(yAxisWidth(['0', '0.25'], 12)).toBeGreaterThan(yAxisWidth(['0', '1'], 12));
    expect(yAxisWidth(['0', '0.25'], 16)).toBeGreaterThan(yAxisWidth(['0', '0.25'], 12));
    expect(yAxisWidth(['0.25'], 12)).toBeGreaterThanOrEqual(1.4 * 12 + textWidth('0.25', 12));
  });
});

describe('evenTickCount', () => {
  it('cuts the span into equal round steps, else asks only for the ends', () => {
    expect(evenTickCount(300, 7, true)).toBe(7); // 0, 50, …, 300
    expect(evenTickCount(300, 3, true)).toBe(2); // not 0, 200, 300
    expect(evenTickCount(10, 5, true)).toBe(3); // 0, 5, 10, not 0, 3, 6, 9, 10
    expect(evenTickCount(10, 7, true)).toBe(6); // 0, 2, …, 10
    expect(evenTickCount(1, 5, false)).toBe(5); // 0, 0.25, …, 1
    expect(evenTickCount(2, 5, true)).toBe(3);
  });
});

describe('chart room', () => {
  it('the right margin holds half the last x tick label (centred on the axis end) and a little more', () => {
    expect(rightMargin('10', 16)).toBe(16);
    expect(rightMargin('3500', 16)).toBe(Math.ceil(4 * 0.65 * 8) + 4);
    expect(rightMargin('3500', 16) - 4).toBeGreaterThan(0.636 * 16 * 2); // DejaVu digits: the label ends 4 px inside
  });

  it("the empty state goes where no reference line's label is, inside the plot", () => {
    // No labels: the middle of the plot.
    expect(emptyStateTop(200, [], 16)).toBeCloseTo(100 - 0.7 * 16);
    // A chance label across the middle: above or below it, not on it.
    const top = emptyStateTop(200, [[80, 102]], 16);
    expect(top + 1.4 * 16 <= 78 || top >= 104).toBe(true);
    // A low plot: the line stays inside it.
    expect(emptyStateTop(30, [[0, 22]], 16)).toBeLessThanOrEqual(30 - 1.4 * 16);
    expect(emptyStateTop(10, [], 16)).toBe(0);
  });
});
