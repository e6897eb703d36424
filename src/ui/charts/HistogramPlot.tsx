// The advantage histogram, drawn by recharts on an x axis symmetric around 0. One run: a bar per
// bin coloured by the sign of its bin (red negative, blue positive, grey for the bin holding 0).
// Several runs: one outlined staircase per run in the run's colour, so their shapes compare.

import { memo, useMemo } from 'react';
import { Bar, CartesianGrid, Cell, ComposedChart, Line, Tooltip, XAxis, YAxis } from 'recharts';
import { formatNumber } from '../format';
import { binColor, symmetricDomain, zeroBinIndex, type HistogramRun } from './histogram';
import { GRID_COLOR, xAxisHeight, xAxisProps, yAxisProps } from './axes';
import { emptyStateTop, rightMargin, tickCount, yAxisWidth } from './series';
import { PlotEmpty } from './Plot';

export type { HistogramRun };

export interface HistogramProps {
  width: number;
  height: number;
  runs: HistogramRun[];
  xLabel: string;
  yLabel: string;
  /** Tick and title font size in px; default 12. */
  fontSize?: number;
  testId?: string;
  /** A line said inside the plot area when there is nothing to draw. */
  empty?: string;
}

/** One bar per bin, at its centre: recharts sizes number-axis bars by the gap between them. */
function barRows(run: HistogramRun): { x: number; count: number; lo: number; hi: number }[] {
  return run.counts.map((count, i) => ({
    x: (run.edges[i] + run.edges[i + 1]) / 2,
    count,
    lo: run.edges[i],
    hi: run.edges[i + 1],
  }));
}

/** A run's outline as a staircase: up at each left edge, across the bin, down to 0 after the last. */
function outline(run: HistogramRun): { x: number; count: number }[] {
  if (run.counts.length === 0 || run.edges.length !== run.counts.length + 1) return [];
  return [
    { x: run.edges[0], count: 0 },
    ...run.counts.map((count, i) => ({ x: run.edges[i], count })),
    { x: run.edges.at(-1)!, count: run.counts.at(-1)! },
    { x: run.edges.at(-1)!, count: 0 },
  ];
}

export const HistogramPlot = memo(function HistogramPlot({
  width,
  height,
  runs,
  xLabel,
  yLabel,
  fontSize = 12,
  testId,
  empty,
}: HistogramProps) {
  const xDomain = useMemo(() => symmetricDomain(runs), [runs]);
  const single = runs.length === 1 ? runs[0] : null;
  const bars = useMemo(() => (single ? barRows(single) : []), [single]);
  const zero = single ? zeroBinIndex(single.edges) : -1;
  const yWidth = yAxisWidth([String(Math.max(0, ...runs.flatMap((r) => r.counts)) * 2)], fontSize);
  const top = Math.ceil(fontSize / 2) + 2;
  const right = rightMargin(formatNumber(xDomain[1]), fontSize);
  const plotHeight = height - top - xAxisHeight(fontSize);
  return (
    <div
      className="plot"
      data-testid={testId}
      data-x-domain={xDomain.join(',')}
      role="img"
      aria-label={`${yLabel} against ${xLabel}`}
    >
      <ComposedChart
        width={width}
        height={height}
        data={bars}
        margin={{ top, right, bottom: 0, left: 0 }}
        barCategoryGap={1}
        style={{ fontSize, fontVariantNumeric: 'tabular-nums' }}
      >
        <CartesianGrid vertical={false} stroke={GRID_COLOR} />
        <XAxis
          {...xAxisProps(fontSize, xLabel, width - yWidth + fontSize)}
          domain={xDomain}
          tickCount={tickCount(width - 5 * fontSize, fontSize, 5, 5)}
          niceTicks="snap125"
        />
        <YAxis
          {...yAxisProps(fontSize, yLabel, height - xAxisHeight(fontSize) + fontSize, yWidth)}
          domain={[0, runs.length > 0 ? 'auto' : 1]}
          allowDataOverflow={runs.length === 0}
          allowDecimals={false}
          tickCount={tickCount(height - xAxisHeight(fontSize), fontSize, 2.2, 5)}
        />
        {histogramMarks(runs, single, bars, zero, xDomain)}
        {histogramTooltip(xLabel, fontSize)}
      </ComposedChart>
      <PlotEmpty
        empty={empty}
        left={yWidth}
        width={width - yWidth - right}
        top={top + emptyStateTop(plotHeight, [], fontSize)}
        fontSize={fontSize}
      />
    </div>
  );
});

/** One run: a bar per bin coloured by its sign. Several: one outlined staircase per run. */
function histogramMarks(
  runs: HistogramRun[],
  single: HistogramRun | null,
  bars: ReturnType<typeof barRows>,
  zero: number,
  xDomain: [number, number],
) {
  return single ? (
    <Bar
      dataKey="count"
      name={single.label}
      isAnimationActive={false}
      data-testid="hist-run"
      data-id={single.id}
      data-bars={single.counts.length}
    >
      {bars.map((b, i) => (
        <Cell key={i} fill={binColor(b.x, xDomain[1], i === zero)} />
      ))}
    </Bar>
  ) : (
    runs.map((run) => (
      <Line
        key={run.id}
        data={outline(run)}
        dataKey="count"
        name={run.label}
        type="stepAfter"
        stroke={run.color}
        strokeWidth={2}
        dot={false}
        isAnimationActive={false}
        data-testid="hist-run"
        data-id={run.id}
        data-bars={run.counts.length}
      />
    ))
  );
}

/** The tooltip: the bin's range (or the x under the pointer) and the counts. */
function histogramTooltip(xLabel: string, fontSize: number) {
  return (
    <Tooltip
      isAnimationActive={false}
      contentStyle={{ fontSize, padding: '2px 6px' }}
      itemStyle={{ padding: 0 }}
      labelFormatter={(x, payload) => {
        const row = payload[0]?.payload as { lo?: number; hi?: number } | undefined;
        return row?.lo !== undefined
          ? `${xLabel} ${formatNumber(row.lo)} to ${formatNumber(row.hi)}`
          : `${xLabel} ${formatNumber(Number(x))}`;
      }}
    />
  );
}
