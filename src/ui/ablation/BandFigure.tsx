// The ablation view's two kinds of chart, shared by the live ablation (AblationView.tsx) and the
// leaderboard's recorded runs (RecordedRuns.tsx): mean curves with their 95% bands over seeds, and
// "solved by step t" staircases, each with its legend (a dashed key is a recorded run).

import { metricName } from '../../config';
import { defaultMetricRange, type SolvedRule } from '../../ablation';
import { paddedDomain } from '../charts/domain';
import { Plot } from '../charts/Plot';
import type { PlotSeries } from '../charts/series';
import { LineSwatch } from '../charts/LineSwatch';

export const PLOT_WIDTH = 440;
export const PLOT_HEIGHT = 220;

/** The y range of a metric's chart: [0, 1] for a rate, else the values padded. */
function bandDomain(metric: string, series: readonly PlotSeries[]): [number, number] {
  const range = defaultMetricRange(metric);
  const values = series.flatMap((s) => [...s.points.map((p) => p.y), ...(s.band ?? []).flatMap((b) => [b.lo, b.hi])]);
  return range && range.max === 1
    ? [0, 1]
    : paddedDomain(values, { floor: range?.min === 0 ? 0 : undefined, minSpan: 0.1 });
}

export function BandFigure({
  metric,
  steps,
  series,
  caption,
  testId,
  plotTestId,
  waiting = [],
}: {
  metric: string;
  steps: number;
  series: PlotSeries[];
  caption: string;
  testId: string;
  plotTestId: string;
  waiting?: readonly string[];
}) {
  return (
    <figure className="chart" data-testid={testId} data-series={series.length}>
      <figcaption>{caption}</figcaption>
      <Plot
        width={PLOT_WIDTH}
        height={PLOT_HEIGHT}
        xDomain={[0, steps]}
        yDomain={bandDomain(metric, series)}
        xLabel="step"
        yLabel={metricName(metric)}
        series={series}
        testId={plotTestId}
      />
      <Legend series={series} waiting={waiting} />
    </figure>
  );
}

export function SolvedFigure({
  solved,
  steps,
  series,
  testId,
  plotTestId,
  waiting = [],
}: {
  solved: SolvedRule;
  steps: number;
  series: PlotSeries[];
  testId: string;
  plotTestId: string;
  waiting?: readonly string[];
}) {
  return (
    <figure className="chart" data-testid={testId}>
      <figcaption>
        Solved by step t ({metricName(solved.metric)} ≥ {solved.target}): share of seeds
      </figcaption>
      <Plot
        width={PLOT_WIDTH}
        height={PLOT_HEIGHT}
        xDomain={[0, steps]}
        yDomain={[0, 1]}
        xLabel="step"
        yLabel="share of seeds solved"
        series={series}
        testId={plotTestId}
      />
      <Legend series={series} waiting={waiting} />
    </figure>
  );
}

export function Legend({ series, waiting = [] }: { series: PlotSeries[]; waiting?: readonly string[] }) {
  return (
    <ul className="chart-legend">
      {series.map((s) => (
        <li key={s.id}>
          <LineSwatch width={26} color={s.color} strokeWidth={s.width} dash={s.dash} /> {s.label}
        </li>
      ))}
      {waiting.map((label) => (
        <li key={label} className="faint" data-testid="ablation-waiting">
          {label}: not started
        </li>
      ))}
    </ul>
  );
}
