// `rlvr reference`: condenses finished `rlvr train` runs of one lesson into the small JSON the
// playground draws, faintly, under a live run (public/reference/<preset>.json), so a lecturer
// sees whether the class's run is on track, and after a jump to a trained model how the run
// got there. Each run's reward curve, and the curves of the metrics the lesson's other charts
// draw, are averaged down to at most REFERENCE_POINTS points; the curriculum advances are kept
// as they are.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, parseFlags, stringFlag, type FlagSpec } from '../core/flags';
import { commonFlag } from '../core/common-flags';
import { configEntries, taskChartMetrics, validateConfig, type RunConfig } from '../config';
import { CHART_INFO, getPreset, presetFlag, presetConfig, type ChartId } from '../lessons';
import { downsample } from '../core/downsample';

export const REFERENCE_FLAGS: Record<string, FlagSpec> = {
  preset: presetFlag("the lesson the runs were trained with (each run's config must be it, up to seed and steps)"),
  run: { kind: 'multi', doc: 'a folder written by rlvr train (config.json, metrics.jsonl); repeat for several seeds' },
  out: commonFlag('out', 'a JSON file, e.g. public/reference/start-here.json'),
  source: { kind: 'value', doc: 'how the runs were made (the command and the adapter), stored in the file' },
};

/** Points per reference curve: faint lines need little detail, and the file ships with the page. */
export const REFERENCE_POINTS = 150;

interface StepLine {
  step: number;
  level: number;
  scalars: Record<string, number>;
}

/**
 * The metrics of `keys` that `charts` draw as lines the recorded runs should carry: the reward
 * chart has its own curve and the level chart the advances.
 */
function recordedKeys(keys: readonly string[], charts: readonly ChartId[]): string[] {
  const out = new Set<string>();
  for (const chart of charts) {
    if (chart === 'reward' || chart === 'level') continue;
    const drawn = chart === 'task' ? taskChartMetrics(keys) : CHART_INFO[chart].metrics.filter((k) => keys.includes(k));
    for (const k of drawn) out.add(k);
  }
  return [...out].sort();
}

/** A metric's curve as the file stores it: [step, value] pairs, x to 0.1, y to 3 decimals. */
function condensed(steps: readonly StepLine[], key: string): [number, number][] {
  return downsample(
    steps.map((s) => ({ x: s.step, y: s.scalars[key] })),
    REFERENCE_POINTS,
  ).map((p) => [Math.round(p.x * 10) / 10, Math.round(p.y * 1000) / 1000] as [number, number]);
}

/**
 * The recorded curves of the metrics `charts` draw besides the reward, over every key any step
 * logged: a task metric may be absent on some steps (a maze batch with no correct walk has no
 * shortest_fraction), the last one included.
 */
function recordedSeries(steps: readonly StepLine[], charts: readonly ChartId[]): Record<string, [number, number][]> {
  const out: Record<string, [number, number][]> = {};
  const logged = new Set(steps.flatMap((s) => Object.keys(s.scalars)));
  for (const key of recordedKeys([...logged], charts)) {
    const curve = condensed(
      steps.filter((s) => Number.isFinite(s.scalars[key])),
      key,
    );
    if (curve.length) out[key] = curve;
  }
  return out;
}

/** The first knob on which a run's config differs from the lesson's (seed and steps may differ). */
export function differingKnob(config: RunConfig, lesson: RunConfig): string | null {
  const a = configEntries(config);
  const b = configEntries(lesson);
  for (const key of Object.keys(b)) {
    if (key === 'seed' || key === 'steps') continue;
    if (a[key] !== b[key]) return key;
  }
  return null;
}

function readRun(dir: string): { config: RunConfig; steps: StepLine[] } {
  let config: RunConfig;
  let lines: string[];
  try {
    // Knobs added since the run was made take their defaults, which keep the old behaviour.
    config = validateConfig(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as RunConfig);
    lines = readFileSync(join(dir, 'metrics.jsonl'), 'utf8').split('\n');
  } catch (e) {
    throw new CliError(`--run ${dir}: not a finished rlvr train folder (${(e as Error).message})`);
  }
  const steps: StepLine[] = [];
  for (const line of lines) {
    if (!line.trim()) continue;
    const row = JSON.parse(line) as Partial<StepLine>;
    if (typeof row.step === 'number' && row.scalars) steps.push(row as StepLine);
  }
  if (steps.length === 0) throw new CliError(`--run ${dir}: metrics.jsonl holds no steps`);
  return { config, steps };
}

export async function referenceCommand(argv: string[], out: (s: string) => void): Promise<number> {
  const f = parseFlags(argv, REFERENCE_FLAGS, 'reference');
  const preset = stringFlag(f, 'preset');
  const lesson = presetConfig(preset);
  const dirs = (f.run as string[] | undefined) ?? [];
  if (dirs.length === 0)
    throw new CliError('--run is required (a folder written by rlvr train; repeat it for several seeds)');
  const runs = dirs.map((dir) => {
    const { config, steps } = readRun(dir);
    const knob = differingKnob(config, lesson);
    if (knob)
      throw new CliError(
        `--run ${dir}: its ${knob} differs from the ${preset} lesson's; a reference run must use the lesson's own settings`,
      );
    const reward = condensed(steps, 'reward');
    const series = recordedSeries(steps, getPreset(preset).charts);
    const advances: [number, number][] = [];
    for (let i = 1; i < steps.length; i++)
      if (steps[i].level > steps[i - 1].level) advances.push([steps[i].step, steps[i].level]);
    const firstAt = (t: number) => steps.find((s) => s.scalars.reward >= t)?.step ?? null;
    out(
      `${dir}: seed ${config.seed}, ${steps.length} steps, reward ≥ 0.5 at step ${firstAt(0.5) ?? '–'}, ≥ 0.8 at ${firstAt(0.8) ?? '–'}, last ${steps[steps.length - 1].scalars.reward.toFixed(3)}${advances.length ? `, levels ${advances.map(([s, l]) => `${l}@${s}`).join(' ')}` : ''}`,
    );
    return { seed: config.seed, reward, advances, series };
  });
  const file = { preset, source: stringFlag(f, 'source', 'rlvr train'), runs };
  writeFileSync(stringFlag(f, 'out'), JSON.stringify(file) + '\n');
  return 0;
}
