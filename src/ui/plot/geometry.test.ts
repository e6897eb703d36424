import { describe, expect, it } from 'vitest';
import {
  bandPath, fitText, horizontalMargins, labelTicks, linePath, maxYTicks, pickX, plotLayout, pointsInside, spacedLabels,
  stepPath, textWidth, tooltipBox, tooltipRows, trianglePath, verticalMargins, xLabelBaselines, yTitlePlacement, type LayoutInput,
  type PlotSeries,
} from './geometry';

const identity = (v: number): number => v;
const flipY = (v: number): number => 100 - v;

function layoutInput(over: Partial<LayoutInput> = {}): LayoutInput {
  return {
    width: 400, height: 170, xDomain: [0, 150], yDomain: [0, 1], xInteger: true, yInteger: false, fontSize: 12, labelsOnTop: false, ...over,
  };
}

function series(id: string, points: [number, number][], over: Partial<PlotSeries> = {}): PlotSeries {
  return { id, label: id, color: '#000', points: points.map(([x, y]) => ({ x, y })), ...over };
}

describe('margins', () => {
  it('leave room below the axis for the tick labels and the title, growing with the font', () => {
    for (const fs of [12, 16]) {
      const { bottom } = verticalMargins(fs, false);
      const { ticks, title } = xLabelBaselines(fs);
      expect(title - ticks).toBeGreaterThanOrEqual(fs); // title below the tick labels, no overlap
      expect(bottom).toBeGreaterThanOrEqual(title + 0.2 * fs); // descenders of the title fit
    }
    expect(verticalMargins(16, false).bottom).toBeGreaterThan(verticalMargins(12, false).bottom);
  });
  it('leave room on top for vLine labels when there are any', () => {
    expect(verticalMargins(12, true).top).toBeGreaterThanOrEqual(12 + 4);
    expect(verticalMargins(12, false).top).toBeLessThan(verticalMargins(12, true).top);
  });
  it('leave room on the left for the widest y label plus the rotated title', () => {
    const narrow = horizontalMargins(12, ['0', '1'], '150').left;
    const wide = horizontalMargins(12, ['0', '0.25', '1000'], '150').left;
    expect(wide - narrow).toBeCloseTo(textWidth('1000', 12) - textWidth('0', 12), 0);
    expect(narrow).toBeGreaterThan(12 + textWidth('1', 12)); // title + label
    expect(horizontalMargins(16, ['0', '1'], '150').left).toBeGreaterThan(narrow);
    expect(horizontalMargins(12, ['0'], '150').right).toBeGreaterThanOrEqual(textWidth('150', 12) / 2);
  });
});

describe('plotLayout', () => {
  it('puts round ticks on a step axis and a [0, 1] axis', () => {
    const layout = plotLayout(layoutInput());
    expect(layout.xTicks.map((t) => t.value)).toEqual([0, 50, 100, 150]);
    expect(layout.xTicks.map((t) => t.label)).toEqual(['0', '50', '100', '150']);
    expect(layout.yTicks.map((t) => t.value)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(layout.yTicks.map((t) => t.label)).toEqual(['0', '0.25', '0.5', '0.75', '1']);
  });
  it('maps the domains onto the plot area (y upward)', () => {
    const layout = plotLayout(layoutInput());
    const { margin, innerWidth, innerHeight } = layout;
    expect(margin.left + innerWidth + margin.right).toBe(400);
    expect(margin.top + innerHeight + margin.bottom).toBe(170);
    expect(layout.x(0)).toBe(0);
    expect(layout.x(150)).toBeCloseTo(innerWidth);
    expect(layout.y(0)).toBe(innerHeight);
    expect(layout.y(1)).toBe(0);
    expect(layout.xAt(innerWidth / 2)).toBeCloseTo(75);
  });
  it('reads a level axis in whole levels', () => {
    const layout = plotLayout(layoutInput({ yDomain: [1, 6], yInteger: true }));
    expect(layout.yTicks.map((t) => t.label)).toEqual(['1', '2', '3', '4', '5', '6']);
    const two = plotLayout(layoutInput({ yDomain: [1, 2], yInteger: true }));
    expect(two.yTicks.map((t) => t.label)).toEqual(['1', '2']);
  });
  it('uses fewer ticks with a lecture-size font, and overridden y ticks inside the domain', () => {
    const big = plotLayout(layoutInput({ fontSize: 16, width: 300 }));
    expect(big.yTicks.length).toBeLessThanOrEqual(plotLayout(layoutInput()).yTicks.length);
    expect(big.xTicks.length).toBeGreaterThanOrEqual(2);
    const over = plotLayout(layoutInput({ yTicks: [-1, 0, 0.5, 1, 2] }));
    expect(over.yTicks.map((t) => t.value)).toEqual([0, 0.5, 1]);
  });
  it('keeps x tick labels apart', () => {
    for (const width of [200, 300, 600, 1200]) {
      for (const fs of [12, 16]) {
        const layout = plotLayout(layoutInput({ width, fontSize: fs, xDomain: [0, 20000] }));
        for (let i = 1; i < layout.xTicks.length; i++) {
          const gap = layout.xTicks[i].px - layout.xTicks[i - 1].px;
          expect(gap).toBeGreaterThan((textWidth(layout.xTicks[i].label, fs) + textWidth(layout.xTicks[i - 1].label, fs)) / 2);
        }
      }
    }
  });
  it('keeps y tick labels apart', () => {
    for (const height of [120, 170, 300]) {
      for (const fs of [12, 16]) {
        const layout = plotLayout(layoutInput({ height, fontSize: fs }));
        for (let i = 1; i < layout.yTicks.length; i++) expect(layout.yTicks[i - 1].px - layout.yTicks[i].px).toBeGreaterThan(fs * 1.2);
      }
    }
    expect(maxYTicks(1000, 12)).toBe(6);
    expect(maxYTicks(60, 16)).toBe(2);
  });
  it('labels ticks with the decimals of their step', () => {
    expect(labelTicks([2.6, 2.8, 3, 3.2])).toEqual(['2.6', '2.8', '3', '3.2']);
    expect(labelTicks([5])).toEqual(['5']);
  });
});

describe('paths', () => {
  it('draws a polyline and breaks it at non-finite values', () => {
    expect(linePath([{ x: 0, y: 0 }, { x: 10, y: 20 }], identity, flipY)).toBe('M0 100L10 80');
    expect(linePath([{ x: 0, y: 0 }, { x: 1, y: NaN }, { x: 2, y: 5 }, { x: 3, y: 5 }], identity, flipY)).toBe('M0 100M2 95L3 95');
    expect(linePath([], identity, identity)).toBe('');
  });
  it('rounds coordinates to a tenth of a pixel', () => {
    expect(linePath([{ x: 1 / 3, y: 2 / 3 }], identity, identity)).toBe('M0.3 0.7');
  });
  it('draws a staircase that holds each value until the next x', () => {
    expect(stepPath([{ x: 0, y: 10 }, { x: 5, y: 20 }, { x: 9, y: 20 }], identity, flipY)).toBe('M0 90H5V80H9V80');
  });
  it('draws a band along the upper edge and back along the lower', () => {
    const d = bandPath([{ x: 0, lo: 1, hi: 3 }, { x: 10, lo: 2, hi: 4 }], identity, identity);
    expect(d).toBe('M0 3L10 4L10 2L0 1Z');
    expect(bandPath([], identity, identity)).toBe('');
  });
  it('draws a triangle marker around its centre', () => {
    expect(trianglePath(10, 10, 4)).toBe('M10 6L13.5 12L6.5 12Z');
  });
  it('drops markers outside the domains', () => {
    const inside = pointsInside([{ x: -1, y: 0.5 }, { x: 5, y: 0.5 }, { x: 5, y: 2 }, { x: 10, y: 1 }], [0, 10], [0, 1]);
    expect(inside).toEqual([{ x: 5, y: 0.5 }, { x: 10, y: 1 }]);
  });
});

describe('picking and the tooltip', () => {
  const faint = series('ref', [[0, 0.5], [1, 0.5], [2, 0.5]], { opacity: 0.25 });
  const main = series('main', [[0, 0], [10, 0.5], [20, 1]]);
  const short = series('short', [[0, 0.1], [10, 0.2]]);
  const chance = series('chance', [[0, 0.5], [15, 0.25]], { kind: 'step' });
  const evals = series('eval', [[10, 0.7]], { kind: 'points' });

  it('picks the nearest x of the first non-faint series', () => {
    expect(pickX([faint, main], 1.2)).toBe(0);
    expect(pickX([faint, main], 6)).toBe(10);
    expect(pickX([faint], 1.2)).toBe(1); // only faint ones: still something to pick
    expect(pickX([], 3)).toBeNull();
    expect(pickX([series('empty', []), main], 19)).toBe(20);
  });
  it('lists each series at x: lines nearest, steps holding, markers only nearby, none past a series end', () => {
    const all = [main, short, chance, evals, series('hidden', [[10, 3]], { hideInTooltip: true })];
    expect(tooltipRows(all, 10, 1).map((r) => [r.label, r.value])).toEqual([['main', 0.5], ['short', 0.2], ['chance', 0.5], ['eval', 0.7]]);
    expect(tooltipRows(all, 20, 1).map((r) => [r.label, r.value])).toEqual([['main', 1]]);
    expect(tooltipRows([chance], 15, 1).map((r) => r.value)).toEqual([0.25]);
    expect(tooltipRows([faint], 1, 0.1)[0].faint).toBe(true);
  });
  it('places the box beside the hover rule, flipped when there is no room on the right', () => {
    const lines = ['step 10', 'reward: 0.5'];
    const left = tooltipBox(lines, 20, 400, 12);
    expect(left.x).toBeGreaterThan(20);
    const right = tooltipBox(lines, 390, 400, 12);
    expect(right.x + right.width).toBeLessThan(390);
    expect(right.x).toBeGreaterThanOrEqual(0);
    expect(left.height).toBeGreaterThanOrEqual(lines.length * 12);
    expect(left.width).toBeGreaterThan(textWidth('reward: 0.5', 12));
  });
});

describe('text', () => {
  it('cuts long titles with an ellipsis to fit', () => {
    expect(fitText('reward', 1000, 12)).toBe('reward');
    const cut = fitText('a very long axis title indeed', 60, 12);
    expect(cut.endsWith('…')).toBe(true);
    expect(textWidth(cut, 12)).toBeLessThanOrEqual(60);
  });
  it('centres the y title on the plot area, or on the whole height when it is longer', () => {
    const margin = { top: 10, right: 10, bottom: 40, left: 50 };
    expect(yTitlePlacement('level', margin, 120, 12)).toEqual({ centre: 70, text: 'level' });
    const long = yTitlePlacement('entropy (nats/token)', margin, 120, 12);
    expect(long).toEqual({ centre: 85, text: 'entropy (nats/token)' });
    const cut = yTitlePlacement('a title far too long for any plot of this size', margin, 120, 12);
    expect(cut.text.endsWith('…')).toBe(true);
    expect(textWidth(cut.text, 12)).toBeLessThanOrEqual(170);
  });
  it('shows labels that do not overlap the previous shown one', () => {
    expect(spacedLabels([0, 10, 50, 55, 100], [20, 20, 20, 20, 20])).toEqual([true, false, true, false, true]);
  });
});
