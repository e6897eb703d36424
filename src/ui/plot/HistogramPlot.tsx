// A histogram of advantages on an x axis symmetric around 0. One run: bars coloured by the
// sign of their bin (red negative, blue positive, grey for the bin holding 0). Several runs:
// one outlined step curve per run in the run's colour, so their shapes compare on one axis.

import { memo, useMemo } from 'react';
import { Axes, AxisTitles } from './Axes';
import { maxYTicks, plotLayout } from './geometry';
import { barRects, maxCount, stepOutlinePath, symmetricDomain, type HistogramRun } from './histogram';
import { countAxis } from './scale';
import { formatNumber } from '../format';

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
}

export const HistogramPlot = memo(function HistogramPlot({ width, height, runs, xLabel, yLabel, fontSize = 12, testId }: HistogramProps) {
  const xDomain = useMemo(() => symmetricDomain(runs), [runs]);
  const counts = useMemo(() => countAxis(maxCount(runs), maxYTicks(height, fontSize)), [runs, height, fontSize]);
  const layout = useMemo(
    () => plotLayout({ width, height, xDomain, yDomain: counts.domain, xInteger: false, yInteger: true, yTicks: counts.ticks, fontSize, labelsOnTop: false }),
    [width, height, xDomain, counts, fontSize],
  );
  const { margin, x, y } = layout;
  const single = runs.length === 1;
  return (
    <svg
      width={width} height={height} role="img" aria-label={`${yLabel} against ${xLabel}`} data-testid={testId}
      data-x-domain={xDomain.join(',')} data-y-domain={counts.domain.join(',')}
      data-x-ticks={layout.xTicks.map((t) => t.value).join(',')} data-y-ticks={layout.yTicks.map((t) => t.value).join(',')}
      style={{ display: 'block', fontSize, fontVariantNumeric: 'tabular-nums' }}
    >
      <AxisTitles layout={layout} xLabel={xLabel} yLabel={yLabel} fontSize={fontSize} />
      <g transform={`translate(${margin.left},${margin.top})`}>
        <Axes layout={layout} fontSize={fontSize} />
        {runs.map((run) => (
          <g key={run.id} data-testid="hist-run" data-id={run.id} data-bars={run.counts.length}>
            {single
              ? barRects(run, x, y, xDomain[1]).map((b, i) => (
                <rect key={i} x={b.x} y={b.y} width={b.width} height={b.height} fill={b.fill}>
                  <title>{`${xLabel} ${formatNumber(b.lo)} to ${formatNumber(b.hi)}: ${b.count}`}</title>
                </rect>
              ))
              : <path d={stepOutlinePath(run, x, y)} fill="none" stroke={run.color} strokeWidth={2} strokeLinejoin="round"><title>{run.label}</title></path>}
          </g>
        ))}
      </g>
    </svg>
  );
});
