// Live charts of the active run and any overlaid runs. Each chart reads the store on its own
// throttled clock (../throttle.ts), so a stream of metrics costs at most one chart render per
// task; every series is cut to a fixed point budget (../../core/downsample.ts). The plots are
// recharts charts with fixed ranges and no animation (./Plot.tsx, ./HistogramPlot.tsx).

import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { taskParamsAtLevel, type RunConfig } from '../../config';
import { CHART_INFO, presetConfig, type ChartId } from '../../lessons';
import { chanceOf } from '../../tasks/chance';
import { getTask } from '../../tasks/registry';
import { useApp, type AppState } from '../../store/store';
import type { RunRecord } from '../../store/kept-runs';
import { CHART_REFRESH_MS, useThrottledSelector } from '../throttle';
import { HistogramPlot, type HistogramRun } from './HistogramPlot';
import { Plot } from './Plot';
import { LineSwatch } from './LineSwatch';
import { CHART_VIEWS, dashboardCharts } from './catalog';
import { chartModel, runColor, runLegend, type ChartModel, type LegendEntry } from './chart-model';
import type { ReferenceSet } from './recordedRuns';
import { histogram } from '../../rl/step-metrics';
import type { RolloutView } from '../../worker/protocol';

/** The runs on the charts: the active one first, then the overlaid ones in list order (memoised). */
let chartRunsMemo: { runs: RunRecord[]; activeRunId: string | null; overlay: string[]; out: RunRecord[] } | null = null;
export function selectChartRuns(s: AppState): RunRecord[] {
  const m = chartRunsMemo;
  if (m && m.runs === s.runs && m.activeRunId === s.activeRunId && m.overlay === s.overlay) return m.out;
  const active = s.runs.filter((r) => r.id === s.activeRunId);
  const others = s.runs.filter((r) => r.id !== s.activeRunId && s.overlay.includes(r.id));
  const out = [...active, ...others];
  chartRunsMemo = { runs: s.runs, activeRunId: s.activeRunId, overlay: s.overlay, out };
  return out;
}

// ── chance and reference runs ────────────────────────────────────────────────────────────────

const chanceCache = new Map<string, number | null>();

/** Expected reward of a uniform guess at a curriculum level (memoised per task parameters). */
export function chanceReward(config: RunConfig, level: number): number | null {
  const params =
    config.curriculum === 'off'
      ? taskParamsAtLevel(config, Number(config[`task.${config.curriculumParam}` as keyof RunConfig]))
      : taskParamsAtLevel(config, level);
  const key = `${config.task}:${JSON.stringify(params)}`;
  if (!chanceCache.has(key)) {
    try {
      chanceCache.set(key, chanceOf(getTask(config.task), params, 1000).reward);
    } catch {
      chanceCache.set(key, null);
    }
  }
  return chanceCache.get(key) ?? null;
}

const references = new Map<string, Promise<ReferenceSet | null>>();
const loadedReferences = new Map<string, ReferenceSet | null>();

/** The recorded runs of a lesson (public/reference/<preset>.json), fetched once; null when there are none. */
function useReference(preset: string | undefined): ReferenceSet | null {
  const [, setVersion] = useState(0);
  useEffect(() => {
    if (!preset || loadedReferences.has(preset)) return;
    let request = references.get(preset);
    if (!request) {
      request = fetch(`${import.meta.env.BASE_URL}reference/${preset}.json`)
        .then((r) => (r.ok ? (r.json() as Promise<ReferenceSet>) : null))
        .catch(() => null)
        .then((set) => {
          const got = set && Array.isArray(set.runs) ? set : null;
          loadedReferences.set(preset, got);
          return got;
        });
      references.set(preset, request);
    }
    // Every chart that asked (reward and level) redraws when the one request answers.
    let live = true;
    void request.then(() => live && setVersion((v) => v + 1));
    return () => {
      live = false;
    };
  }, [preset]);
  return preset ? (loadedReferences.get(preset) ?? null) : null;
}

/** A run trained with its lesson's own settings (any seed or step budget) is comparable to the lesson's recorded runs. */
export function isLessonRun(run: RunRecord | undefined): boolean {
  if (!run?.preset || run.variant !== undefined) return false;
  try {
    const base = presetConfig(run.preset);
    return JSON.stringify({ ...run.config, seed: 0, steps: 0 }) === JSON.stringify({ ...base, seed: 0, steps: 0 });
  } catch {
    return false;
  }
}

// ── frames ───────────────────────────────────────────────────────────────────────────────────

/** The element's content box, updated when it resizes (whole pixels). */
function useElementSize(ref: React.RefObject<HTMLElement | null>): { width: number; height: number } {
  const [size, setSize] = useState({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () =>
      setSize((s) => {
        const next = { width: Math.floor(el.clientWidth), height: Math.floor(el.clientHeight) };
        return next.width === s.width && next.height === s.height ? s : next;
      });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}

/** What a frame shows around its plot (a line chart's ChartModel is one). */
interface FrameModel {
  title: string;
  /** Points (or bars) drawn (data-points, for the page's tests). */
  points: number;
  legend: readonly LegendEntry[];
  /** Recorded-run lines drawn (data-recorded, for the page's tests). */
  recorded?: number;
  /** One line under the plot (e.g. a loaded model with no recorded run): it covers nothing. */
  note?: string;
}

interface FrameProps {
  id: ChartId;
  model: FrameModel;
  /** Fixed plot height; without it the plot fills the frame's height. */
  height?: number;
  className?: string;
  children: (box: PlotBox) => ReactNode;
}

/** What a frame lends its plot: the box's size (px) and the charts' font size (larger under the projector zoom). */
interface PlotBox {
  width: number;
  height: number;
  fontSize: number;
}

/** A legend label without its explanation in brackets ("chance (a random guess)" → "chance"), for the projector zoom. */
export function shortLegend(label: string): string {
  return label.replace(/\s*\((?:= |an? )[^)]*\)/g, '');
}

function ChartFrame({ id, model, height, className, children }: FrameProps) {
  const { title, points, recorded = 0, legend, note } = model;
  const box = useRef<HTMLDivElement>(null);
  const zoom = useApp((s) => s.zoom);
  const size = useElementSize(box);
  const h = height ?? size.height;
  const fontSize = zoom ? 16 : 13;
  return (
    <figure
      className={`chart${className ? ` ${className}` : ''}`}
      data-testid={`chart-${id}`}
      data-points={points}
      data-recorded={recorded}
      data-highlight={`chart-${id}`}
    >
      <figcaption>{title}</figcaption>
      <div ref={box} className="chart-box" style={height ? { height } : undefined}>
        {size.width > 0 && h > 40 ? children({ width: size.width, height: h, fontSize }) : null}
      </div>
      {legend.length > 0 && (
        <ul className="chart-legend">
          {legend.map((item) => (
            <li
              key={item.label}
              title={
                zoom && shortLegend(item.label) !== item.label
                  ? [item.label, item.title].filter(Boolean).join(': ')
                  : item.title
              }
              className={item.faint ? 'faint' : undefined}
            >
              {item.marker ? (
                <span style={{ color: item.color }}>{item.marker}</span>
              ) : (
                <LineSwatch width={22} color={item.color} dash={item.dash} opacity={item.faint ? 0.5 : 1} />
              )}{' '}
              {zoom ? shortLegend(item.label) : item.label}
            </li>
          ))}
        </ul>
      )}
      {note && (
        <p className="chart-note" data-testid="chart-note">
          {note}
        </p>
      )}
    </figure>
  );
}

// ── one chart ────────────────────────────────────────────────────────────────────────────────

export interface ChartProps {
  id: ChartId;
  /** Timer slot of this chart (../throttle.ts). */
  slot: number;
  height?: number;
  className?: string;
}

export const Chart = memo(function Chart({ id, slot, height, className }: ChartProps) {
  if (CHART_VIEWS[id].plot === 'histogram') return <HistogramChart slot={slot} height={height} className={className} />;
  return <LineChart id={id} slot={slot} height={height} className={className} />;
});

/** A chart with no point drawn yet takes its first points at once (throttle.ts, refreshDelay). */
const noPoints = (runs: readonly RunRecord[]): boolean => runs.every((r) => r.points.length === 0);
const noHistogram = (runs: readonly RunRecord[]): boolean => !runs.some(hasHistogram);

function LineChart({ id, slot, height, className }: ChartProps) {
  const runs = useThrottledSelector(selectChartRuns, slot, CHART_REFRESH_MS, noPoints);
  const viewStep = useApp((s) => s.viewStep);
  const setViewStep = useApp((s) => s.setViewStep);
  const pending = useApp((s) => s.trainerConfig ?? s.config);
  const jumpState = useApp((s) => s.jump);
  // A lesson's trained model, before its first step or continued by ▶: that lesson's recorded runs, cut at its step.
  const jumped =
    jumpState !== null && (runs.length === 0 || (runs.length === 1 && runs[0].importedFrom === jumpState.file));
  const lesson = isLessonRun(runs[0]);
  const reference = useReference(jumped ? jumpState.preset : lesson ? runs[0].preset : undefined);
  // A lesson's trained model (loaded at step 800, say): every chart spans the lesson from step 0
  // and draws the recorded runs that got there (those its file holds), not a lone dot at the right edge.
  const fromZero = jumped || (lesson && runs.length === 1 && runs[0].importedFrom !== undefined);
  const jump = useMemo(
    () => (jumped ? { step: jumpState.step, seed: jumpState.seed } : undefined),
    [jumped, jumpState],
  );
  const model: ChartModel = useMemo(
    () => chartModel(id, runs, { chance: chanceReward, reference, pending, fromZero, jump }),
    [id, runs, reference, pending, fromZero, jump],
  );
  const empty =
    model.points > 0 || model.recorded > 0 || jumped
      ? undefined
      : runs.length === 0
        ? className === 'chart-small'
          ? 'no data yet'
          : 'no data yet: press ▶'
        : 'nothing to show for this run';
  return (
    <ChartFrame id={id} model={model} height={height} className={className}>
      {(box) => (
        <Plot
          {...box}
          empty={empty}
          xDomain={model.xDomain}
          yDomain={model.yDomain}
          xLabel="step"
          yLabel={model.yLabel}
          yInteger={model.yInteger}
          series={model.series}
          hLines={model.hLines}
          vLines={model.vLines}
          testId={`plot-${id}`}
          selectedX={viewStep}
          onPick={(x) => setViewStep(x)}
        />
      )}
    </ChartFrame>
  );
}

/** A run whose last step recorded an advantage histogram. */
const hasHistogram = (r: RunRecord): boolean => (r.histogram?.counts.length ?? 0) > 0;

function histogramRuns(runs: readonly RunRecord[]): HistogramRun[] {
  return runs.filter(hasHistogram).map((r) => ({
    id: r.id,
    label: runs.length > 1 ? runLegend(r) : `step ${r.points[r.points.length - 1]?.step ?? 0}`,
    color: runColor(r),
    counts: r.histogram!.counts,
    edges: r.histogram!.edges,
  }));
}

/** The advantages of a preview group's trained tokens (a loaded model before its first step), as one histogram. */
export function previewHistogram(rollout: RolloutView): HistogramRun | null {
  const adv = rollout.advantages;
  if (!adv) return null;
  const trained: number[] = [];
  for (let j = 0; j < adv.length; j++) if (rollout.mask[j] !== 0) trained.push(adv[j]);
  if (trained.length === 0) return null;
  const bound = Math.max(...trained.map(Math.abs));
  // 21 bins on a range symmetric around 0, as a step's record has (rl/step-metrics.ts, stepMetrics).
  const h = histogram(trained, 21, bound > 0 ? [-bound, bound] : undefined);
  return {
    id: 'preview',
    label: `step ${rollout.step}, one group`,
    color: runColor({ name: '#1' }),
    counts: Array.from(h.counts),
    edges: Array.from(h.edges),
  };
}

const selectPreview = (s: AppState): RolloutView | null => (s.rollout?.preview ? s.rollout : null);

function HistogramChart({ slot, height, className }: Omit<ChartProps, 'id'>) {
  const runs = useThrottledSelector(selectChartRuns, slot, CHART_REFRESH_MS, noHistogram);
  const preview = useApp(selectPreview);
  const fromRuns = useMemo(() => histogramRuns(runs), [runs]);
  // Before a loaded model's first step: its preview group's advantages (no run has any yet).
  const previewed = useMemo(
    () => (fromRuns.length === 0 && preview ? previewHistogram(preview) : null),
    [fromRuns, preview],
  );
  const hist = previewed ? [previewed] : fromRuns;
  const step = previewed ? preview!.step : runs[0]?.points[runs[0].points.length - 1]?.step;
  const legend: LegendEntry[] =
    hist.length > 1
      ? hist.map((h) => ({ label: h.label, color: h.color }))
      : [
          { label: 'blue + (raised)', color: '#2166ac' },
          { label: 'red − (lowered)', color: '#b2182b' },
        ];
  const frame: FrameModel = {
    title: `${CHART_INFO.advantages.title}${step !== undefined && hist.length === 1 ? ` (step ${step}${previewed ? ', one group, no update' : ''})` : ''}`,
    points: hist[0]?.counts.length ?? 0,
    legend: hist.length ? legend : [],
  };
  return (
    <ChartFrame id="advantages" model={frame} height={height} className={className}>
      {(box) => (
        <HistogramPlot
          {...box}
          runs={hist}
          xLabel="advantage of a trained token"
          yLabel="tokens"
          testId="plot-advantages"
          empty={hist.length === 0 ? 'no data yet' : undefined}
        />
      )}
    </ChartFrame>
  );
}

// ── sets of charts ───────────────────────────────────────────────────────────────────────────

/** The charts of the lecture view: the lesson's, the first one large. */
export function LessonCharts({ ids }: { ids: readonly ChartId[] }) {
  const [main, ...rest] = ids;
  return (
    <section className={`lesson-charts n${rest.length}`} aria-label="charts">
      <Chart id={main} slot={0} className="chart-main" />
      <div className="chart-row">
        {rest.map((id, i) => (
          <Chart key={id} id={id} slot={i + 1} className="chart-small" />
        ))}
      </div>
    </section>
  );
}

/** Every chart: the learning charts, then a fold with the engineering ones and those off in this config. */
export function AllCharts() {
  const config = useApp((s) => s.trainerConfig ?? s.config);
  const { main, fold } = useMemo(() => dashboardCharts(config), [config]);
  return (
    <section className="all-charts" aria-label="all charts">
      <div className="charts-grid">
        {main.map((id, i) => (
          <Chart key={id} id={id} slot={i} height={190} />
        ))}
      </div>
      <details className="charts-fold" data-testid="charts-fold">
        <summary>More charts: {fold.map((id) => CHART_INFO[id].title.toLowerCase()).join(', ')}</summary>
        <div className="charts-grid">
          {fold.map((id, i) => (
            <Chart key={id} id={id} slot={main.length + i} height={170} />
          ))}
        </div>
      </details>
    </section>
  );
}
