// Live charts of the active run and any overlaid runs (recharts, no animation, no dots, every
// series downsampled to POINT_BUDGET points). Each chart reads the store on its own throttled
// clock (./throttle.ts), so a stream of metrics costs at most one chart render per task.

import { memo, useMemo } from 'react';
import {
  Area, AreaChart, Bar, BarChart, CartesianGrid, ComposedChart, Line, Scatter, Tooltip, XAxis, YAxis,
} from 'recharts';
import { useApp, type AppState } from '../store/store';
import { useThrottledSelector } from './throttle';
import type { RunRecord } from '../store/runs';
import { chartSeries, evalSeries, histogramBars, passAtKKey, runColor, stackedRows, taskMetricKeys } from './chartData';
import { downsample } from './downsample';
import { formatNumber } from './format';
import { ChartFrame, type LegendItem } from './ChartFrame';

const HEIGHT = 170;
const AXIS_FONT = { fontSize: 10 };

/** The runs on the charts: the active one and the overlaid ones, in list order (memoised on its inputs). */
let chartRunsMemo: { runs: RunRecord[]; activeRunId: string | null; overlay: string[]; out: RunRecord[] } | null = null;
function selectChartRuns(s: AppState): RunRecord[] {
  const m = chartRunsMemo;
  if (m && m.runs === s.runs && m.activeRunId === s.activeRunId && m.overlay === s.overlay) return m.out;
  const out = s.runs.filter((r) => r.id === s.activeRunId || s.overlay.includes(r.id));
  chartRunsMemo = { runs: s.runs, activeRunId: s.activeRunId, overlay: s.overlay, out };
  return out;
}

const selectActiveRun = (s: AppState): RunRecord | undefined => s.runs.find((r) => r.id === s.activeRunId);

export function Charts() {
  const groupSize = useApp((s) => s.config.groupSize);
  const evalK = useApp((s) => s.config.evalK);
  const passK = passAtKKey(groupSize, evalK);
  return (
    <section className="charts" aria-label="charts">
      <MetricChart slot={0} id="reward" title={`reward, pass@1, ${passK} (dots: held-out eval)`} keys={useKeys('reward', 'pass@1', passK)} withEvals />
      <MetricChart slot={1} id="entropy" title="policy entropy (nats/token)" keys={ENTROPY} />
      <HistogramChart slot={2} />
      <MetricChart slot={3} id="groups" title="groups all correct / all wrong / zero spread" keys={GROUPS} />
      <MetricChart slot={4} id="kl-clip" title="KL to reference, clip ratios" keys={KL_CLIP} />
      <MetricChart slot={5} id="grad-norm" title="gradient norm (before clipping)" keys={GRAD_NORM} />
      <MetricChart slot={6} id="length" title="completion length (tokens)" keys={LENGTH} />
      <TaskMetricsChart slot={7} />
      <MetricChart slot={8} id="level" title="curriculum level" keys={LEVEL} />
      <MetricChart slot={9} id="throughput" title="throughput (sampled tokens/s)" keys={THROUGHPUT} />
      <TimeSplitChart slot={10} />
    </section>
  );
}

const ENTROPY = ['entropy'];
const GROUPS = ['frac_all_correct', 'frac_all_wrong', 'frac_reward_zero_std'];
const KL_CLIP = ['kl', 'clip_ratio/low_mean', 'clip_ratio/high_mean'];
const GRAD_NORM = ['grad_norm'];
const LENGTH = ['completions/mean_length'];
const LEVEL = ['level'];
const THROUGHPUT = ['tokens_per_s'];

function useKeys(...keys: string[]): string[] {
  const joined = keys.join('\n');
  return useMemo(() => joined.split('\n'), [joined]);
}

function TaskMetricsChart({ slot }: { slot: number }) {
  const runs = useThrottledSelector(selectChartRuns, slot);
  const keys = taskMetricKeys(runs);
  const stable = useKeys(...keys);
  const trained = runs.some((r) => r.points.length > 0);
  return (
    <MetricChart
      slot={slot} id="task" title="task metrics (task/…)" keys={keys.length ? stable : NO_KEYS}
      empty={trained ? 'this task reports no group metrics' : 'no data yet: start training'}
    />
  );
}
const NO_KEYS: string[] = [];

interface MetricChartProps {
  /** Timer slot of this chart (./throttle.ts). */
  slot: number;
  id: string;
  title: string;
  keys: readonly string[];
  withEvals?: boolean;
  empty?: string;
}

const MetricChart = memo(function MetricChart({ slot, id, title, keys, withEvals, empty }: MetricChartProps) {
  const runs = useThrottledSelector(selectChartRuns, slot);
  const series = useMemo(() => chartSeries(runs, keys), [runs, keys]);
  const evals = useMemo(
    () => (withEvals
      ? runs.flatMap((run) => [
          { run, key: 'eval/pass@1_greedy' as const, points: downsample(evalSeries(run, 'eval/pass@1_greedy')) },
          { run, key: 'eval/pass@k' as const, points: downsample(evalSeries(run, 'eval/pass@k')) },
        ]).filter((e) => e.points.length > 0)
      : []),
    [runs, withEvals],
  );
  const points = series.reduce((n, s) => Math.max(n, s.points.length), 0);
  const legend = useMemo((): LegendItem[] => [
    ...series.map((s) => ({ name: s.name, color: s.color, dash: s.dash })),
    ...evals.map((e) => ({ name: `${runs.length > 1 ? `${e.run.name} ` : ''}${e.key}`, color: runColor(e.run), marker: e.key === 'eval/pass@k' ? '▲' : '●' })),
  ], [series, evals, runs.length]);
  return (
    <ChartFrame id={id} title={title} points={points} series={series.length} legend={legend} empty={series.length === 0 ? (empty ?? 'no data yet: start training') : undefined}>
      {(width) => (
        <ComposedChart width={width} height={HEIGHT} margin={MARGIN}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
          <XAxis dataKey="x" type="number" domain={['dataMin', 'dataMax']} allowDuplicatedCategory={false} tick={AXIS_FONT} tickFormatter={formatNumber} interval={0} />
          <YAxis dataKey="y" type="number" width={44} tick={AXIS_FONT} tickFormatter={formatNumber} domain={['auto', 'auto']} interval={0} />
          <Tooltip isAnimationActive={false} formatter={(v) => formatNumber(Number(v))} labelFormatter={(x) => `step ${formatNumber(Number(x))}`} />
          {series.map((s) => (
            <Line
              key={s.id} data={s.points} dataKey="y" name={s.name} stroke={s.color} strokeDasharray={s.dash}
              dot={false} activeDot={false} isAnimationActive={false} strokeWidth={1.5} type="linear"
            />
          ))}
          {evals.map((e) => (
            <Scatter
              key={`${e.run.id}:${e.key}`} data={e.points} dataKey="y" name={`${runs.length > 1 ? `${e.run.name} ` : ''}${e.key}`}
              fill={runColor(e.run)} shape={e.key === 'eval/pass@k' ? 'triangle' : 'circle'} isAnimationActive={false}
            />
          ))}
        </ComposedChart>
      )}
    </ChartFrame>
  );
});

const MARGIN = { top: 6, right: 16, bottom: 0, left: 0 };

const HistogramChart = memo(function HistogramChart({ slot }: { slot: number }) {
  const run = useThrottledSelector(selectActiveRun, slot);
  const bars = useMemo(() => histogramBars(run?.histogram), [run?.histogram]);
  const step = run?.points[run.points.length - 1]?.step;
  return (
    <ChartFrame
      id="advantages" title={`advantages of the trained tokens${step !== undefined ? `, step ${step}` : ''}`} points={bars.length}
      legend={HIST_LEGEND} empty={bars.length === 0 ? 'no data yet' : undefined}
    >
      {(width) => (
        <BarChart width={width} height={HEIGHT} data={bars} margin={MARGIN} barCategoryGap={1}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
          <XAxis dataKey="x" tick={AXIS_FONT} tickFormatter={(v) => formatNumber(Number(v))} interval={4} />
          <YAxis width={44} tick={AXIS_FONT} interval={0} />
          <Tooltip isAnimationActive={false} labelFormatter={(x) => `advantage ≈ ${formatNumber(Number(x))}`} />
          <Bar dataKey="count" name="tokens" fill="#6366f1" isAnimationActive={false} />
        </BarChart>
      )}
    </ChartFrame>
  );
});

const HIST_LEGEND: LegendItem[] = [{ name: 'tokens per advantage bin', color: '#6366f1' }];

const TIME_KEYS = ['time/sample_ms', 'time/verify_ms', 'time/advantages_ms', 'time/update_ms'] as const;
const TIME_COLORS = ['#2563eb', '#059669', '#d97706', '#dc2626'];

const TimeSplitChart = memo(function TimeSplitChart({ slot }: { slot: number }) {
  const run = useThrottledSelector(selectActiveRun, slot);
  const rows = useMemo(() => (run ? stackedRows(run, TIME_KEYS) : []), [run]);
  return (
    <ChartFrame
      id="time" title="time per step: sample / verify / advantages / update (ms)" points={rows.length}
      legend={TIME_LEGEND} empty={rows.length === 0 ? 'no data yet' : undefined}
    >
      {(width) => (
        <AreaChart width={width} height={HEIGHT} data={rows} margin={MARGIN}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
          <XAxis dataKey="x" type="number" domain={['dataMin', 'dataMax']} tick={AXIS_FONT} tickFormatter={formatNumber} interval={0} />
          <YAxis width={44} tick={AXIS_FONT} tickFormatter={formatNumber} interval={0} />
          <Tooltip isAnimationActive={false} formatter={(v) => formatNumber(Number(v))} />
          {TIME_KEYS.map((k, i) => (
            <Area key={k} dataKey={k} name={k.slice(5, -3)} stackId="t" stroke={TIME_COLORS[i]} fill={TIME_COLORS[i]} fillOpacity={0.35} dot={false} activeDot={false} isAnimationActive={false} type="linear" />
          ))}
        </AreaChart>
      )}
    </ChartFrame>
  );
});

const TIME_LEGEND: LegendItem[] = TIME_KEYS.map((k, i) => ({ name: k.slice(5, -3), color: TIME_COLORS[i] }));
