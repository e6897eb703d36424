// `npm run bench -- lesson-speed`: how fast the heavy lessons train on this adapter. For each
// lesson it builds the lesson's own run (its preset: model, batch, group size, task), times
// whole RL steps (sample, verify, advantages, update) on the GPU engine, counts the device calls
// of one step, and projects the lesson's step budget to hours. The lessons' on-screen "Needs a
// real GPU" lines are set from these figures (docs/benchmarks.md, "The heavy lessons").
//
// The steps are timed at the curriculum's last level (curriculum off): the longest chains, so the
// projection is an upper bound; a lesson spends its early steps on shorter ones.

import type { BenchOptions, BenchSuite } from './suite';
import type { GpuContext } from '../gpu/device';
import { countGpuCalls, type GpuCallCounts } from '../gpu/call-counter';
import { asCliError, CliError } from '../core/flags';
import { commonFlag } from '../core/common-flags';
import { configFromCli } from '../lessons/preset-flags';
import { PRESET_NAMES } from '../lessons/presets';
import { paramCount } from '../model/model-config';
import { ConfigError, type RunConfig } from '../config/config';
import { GpuEngine } from '../rl/gpu-engine';
import { Trainer } from '../rl/trainer';
import { formatTable } from './text-table';
import { median } from '../core/numeric';

/** The lessons issue 46 names as needing a real GPU. */
export const HEAVY_LESSONS = ['cot-s4', 'cot-a4', 'cot-a5', 'no-cot-a5', 'maze-5x5'] as const;

export interface LessonSpeed {
  lesson: string;
  /** Samples a step: prompts × group size. */
  samples: number;
  params: number;
  /** Wall seconds of each timed step (after the untimed warm-up steps). */
  stepSeconds: number[];
  medianStepSeconds: number;
  /** CPU seconds of this process a step (user + system), median. On a software adapter the GPU's
   *  work runs on this process's threads, so this holds where the wall time follows the machine's load. */
  medianCpuSeconds: number;
  stepsPerSecond: number;
  /** The lesson's step budget (its preset's `steps`). */
  budget: number;
  /** budget × the median step: hours on this adapter at the last level. */
  projectedHours: number;
  /** Device calls of one whole RL step (the last timed one). */
  counts: GpuCallCounts;
}

function lessonList(raw: unknown): string[] {
  if (raw === undefined) return [...HEAVY_LESSONS];
  const names = String(raw)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const n of names)
    if (!PRESET_NAMES.includes(n))
      throw new CliError(`--lessons: unknown lesson "${n}"; lessons: ${PRESET_NAMES.join(', ')}`);
  if (names.length === 0) throw new CliError('--lessons must name at least one lesson');
  return names;
}

/** The lesson's run as the page would start it, at its last curriculum level, with no held-out checks. */
export function lessonConfig(lesson: string, extra: readonly string[] = []): RunConfig {
  const own = asCliError(() => configFromCli({ preset: lesson, sets: [...extra] }), ConfigError);
  // The curriculum anchor's reference sync needs the curriculum; 'none' keeps the KL term's forward.
  const off = own.refSync === 'curriculum' ? ['curriculum=off', 'refSync=none'] : ['curriculum=off'];
  const config = asCliError(() => configFromCli({ preset: lesson, sets: [...off, ...extra] }), ConfigError);
  return { ...config, evalEvery: 0 };
}

/** Times `reps` whole RL steps of one lesson after `warmup` untimed ones (pipelines, plans). */
async function measureLesson(gpu: GpuContext, lesson: string, opts: BenchOptions): Promise<LessonSpeed> {
  const config = lessonConfig(lesson, (opts.flags.set as string[] | undefined) ?? []);
  const counter = countGpuCalls(gpu.device);
  const trainer = await Trainer.create(config, (l, p, s) => GpuEngine.create(gpu.device, l, p, s));
  try {
    for (let i = 0; i < opts.warmup; i++) await trainer.step();
    const stepSeconds: number[] = [];
    const cpuSeconds: number[] = [];
    let counts: GpuCallCounts | undefined;
    for (let i = 0; i < opts.reps; i++) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const m = await counter.measure(() => trainer.step());
      const c = process.cpuUsage(c0);
      stepSeconds.push((performance.now() - t0) / 1000);
      cpuSeconds.push((c.user + c.system) / 1e6);
      counts = m.counts;
      opts.progress(`${lesson}: step ${i + 1}/${opts.reps} ${stepSeconds[i].toFixed(2)} s`);
    }
    const med = median(stepSeconds);
    return {
      lesson,
      samples: config.batchPrompts * config.groupSize,
      params: paramCount(trainer.layout.config),
      stepSeconds,
      medianStepSeconds: med,
      medianCpuSeconds: median(cpuSeconds),
      stepsPerSecond: 1 / med,
      budget: config.steps,
      projectedHours: (config.steps * med) / 3600,
      counts: counts!,
    };
  } finally {
    trainer.destroy();
  }
}

/** A table row a lesson: the figures the "Needs a real GPU" lines quote. */
export function lessonSpeedTable(rows: readonly LessonSpeed[]): string {
  return formatTable(
    [
      'lesson',
      'params',
      'samples / step',
      'median s / step',
      'CPU s / step',
      'steps / s',
      'budget',
      'projected h',
      'dispatches / step',
    ],
    rows.map((r) => [
      r.lesson,
      r.params.toLocaleString('en-US'),
      String(r.samples),
      r.medianStepSeconds.toFixed(2),
      r.medianCpuSeconds.toFixed(2),
      r.stepsPerSecond.toFixed(3),
      r.budget.toLocaleString('en-US'),
      r.projectedHours.toFixed(1),
      r.counts.dispatches.toLocaleString('en-US'),
    ]),
  );
}

export const lessonSpeedSuite: BenchSuite = {
  name: 'lesson-speed',
  summary:
    "time whole RL steps of the heavy lessons (their own presets, last curriculum level) and project each lesson's budget to hours",
  flags: {
    lessons: { kind: 'value', doc: `comma-separated lessons (default ${HEAVY_LESSONS.join(',')})` },
    set: commonFlag(
      'set',
      "applied to every lesson after its own settings (a smaller model for a quick look; the figures are then not the lesson's)",
    ),
  },
  defaultReps: () => 3,
  async run(gpu, opts) {
    const lessons = lessonList(opts.flags.lessons);
    const rows: LessonSpeed[] = [];
    for (const lesson of lessons) rows.push(await measureLesson(gpu, lesson, opts));
    opts.out(
      `\nwhole RL steps at each lesson's last curriculum level; ${opts.reps} timed after ${opts.warmup} warm-up, medians`,
    );
    opts.out(lessonSpeedTable(rows));
    return { lessons: rows };
  },
};
