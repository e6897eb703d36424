// `npm run bench -- learning`: does RL learn, and how fast? Runs a preset (default
// cot-discovery) for several seeds, one after another, and reports per seed the curriculum
// level reached, held-out greedy pass@1 at that level, the task's headline metric (groupmul: CoT
// alignment), steps and wall time; then the spread over seeds (learning is a random process: never the best run).

import type { BenchOptions, BenchSuite } from './suite';
import type { GpuContext } from '../gpu/device';
import { asCliError, CliError } from '../core/flags';
import { commonFlag } from '../core/common-flags';
import { configFromCli, presetFlag } from '../lessons/preset-flags';
import { ConfigError, curriculumLevels } from '../config/config';
import { metricName } from '../config/metric-names';
import { getTask } from '../tasks/registry';
import { GpuEngine } from '../rl/gpu-engine';
import { Trainer, TrainingFault } from '../rl/trainer';
import { formatTable } from './text-table';
import { median } from '../core/numeric';

interface SeedResult {
  seed: number;
  steps: number;
  seconds: number;
  level: number;
  finalLevel: number;
  /** Greedy pass@1 on the held-out prompts of the level reached. */
  passAt1: number;
  /** Greedy pass@1 on held-out prompts of the final level (= passAt1 when it was reached): the
   *  figure to compare between presets that stopped at different levels (chance for S3: 1/6). */
  passAt1Final: number;
  /** The task's headline metric (Task.display.headlineMetric; groupmul: CoT alignment) of the greedy completions, or null. */
  headline: number | null;
  /** First step at which the final level was solved (greedy pass@1 ≥ the target), if ever. */
  solvedAtStep: number | null;
  fault?: string;
}

/** The suite's flags, checked in order, and the preset's config they apply to. */
function learningOptions(opts: BenchOptions) {
  const preset = String(opts.flags.preset ?? 'cot-discovery');
  const seeds = String(opts.flags.seeds ?? '0,1,2,3')
    .split(',')
    .map((s) => Number(s.trim()));
  if (seeds.some((s) => !Number.isInteger(s) || s < 0))
    throw new CliError(`--seeds must be comma-separated non-negative integers, got "${String(opts.flags.seeds)}"`);
  const checkEvery = Number(opts.flags['check-every'] ?? 50);
  const finalPrompts = Number(opts.flags['final-prompts'] ?? 512);
  if (!Number.isInteger(finalPrompts) || finalPrompts < 1)
    throw new CliError(`--final-prompts must be a positive integer, got "${String(opts.flags['final-prompts'])}"`);
  const sets = (opts.flags.set as string[] | undefined) ?? [];
  const base = asCliError(() => configFromCli({ preset, sets }), ConfigError);
  const budget = Number(opts.flags.steps ?? (base.steps > 0 ? base.steps : 3000));
  if (!Number.isInteger(budget) || budget < 1)
    throw new CliError(`--steps must be a positive integer, got "${String(opts.flags.steps)}"`);
  const finalLevel = curriculumLevels(base)[1];
  const target = Number(opts.flags.target ?? base.curriculumTarget);
  if (!(target > 0 && target <= 1))
    throw new CliError(`--target must be a number in (0, 1], got "${String(opts.flags.target)}"`);
  // The task metric reported beside pass@1: the one the task chart is named after (its spec gives the column's name).
  const headline = getTask(base.task).display.headlineMetric ?? null;
  const headlineName = headline === null ? 'task metric' : metricName(headline);
  return { preset, seeds, checkEvery, finalPrompts, sets, base, budget, finalLevel, target, headline, headlineName };
}

type LearningOptions = ReturnType<typeof learningOptions>;

/**
 * Trains until greedy pass@1 at the final level (checked every checkEvery steps) reaches the
 * target, or the budget ends; a TrainingFault ends the seed early and is reported, not thrown.
 */
async function trainUntilSolved(
  trainer: Trainer,
  seed: number,
  o: LearningOptions,
  t0: number,
  progress: (line: string) => void,
): Promise<{ solvedAtStep: number | null; fault: string | undefined }> {
  let solvedAtStep: number | null = null;
  let fault: string | undefined;
  try {
    for await (const event of trainer.run({ steps: o.budget })) {
      if (!('record' in event) || event.record.step % o.checkEvery !== 0) continue;
      const step = event.record.step;
      const seconds = ((performance.now() - t0) / 1000).toFixed(0);
      if (trainer.level < o.finalLevel) {
        progress(`seed ${seed} step ${step}: level ${trainer.level} (${seconds} s)`);
        continue;
      }
      const rate = await trainer.greedyPassRate();
      progress(`seed ${seed} step ${step}: level ${trainer.level}, greedy pass@1 ${rate.toFixed(3)} (${seconds} s)`);
      if (rate >= o.target) {
        solvedAtStep = step;
        break;
      }
    }
  } catch (e) {
    if (!(e instanceof TrainingFault)) throw e;
    fault = e.message;
  }
  return { solvedAtStep, fault };
}

/** One seed: a fresh trainer, trained, then evaluated on held-out prompts at the level reached (and the final level). */
async function runSeed(
  gpu: GpuContext,
  seed: number,
  o: LearningOptions,
  progress: (line: string) => void,
): Promise<SeedResult> {
  const { base, finalLevel, finalPrompts } = o;
  const config = { ...base, seed, evalEvery: 0 };
  const trainer = await Trainer.create(config, (l, p, s) => GpuEngine.create(gpu.device, l, p, s));
  const t0 = performance.now();
  const { solvedAtStep, fault } = await trainUntilSolved(trainer, seed, o, t0, progress);
  const ev = await trainer.evaluate(trainer.level, finalPrompts);
  const headline = o.headline === null ? undefined : ev.taskMetrics[o.headline.slice('task/'.length)];
  const seconds = (performance.now() - t0) / 1000;
  const passAt1Final =
    trainer.level >= finalLevel
      ? ev['eval/pass@1_greedy']
      : (await trainer.evaluate(finalLevel, finalPrompts))['eval/pass@1_greedy'];
  const result: SeedResult = {
    seed,
    steps: trainer.stepCount,
    seconds,
    level: trainer.level,
    finalLevel,
    passAt1: ev['eval/pass@1_greedy'],
    passAt1Final,
    headline: headline ?? null,
    solvedAtStep,
    ...(fault ? { fault } : {}),
  };
  // Each seed's result as soon as it is known: a long run stopped early still reports the seeds it finished.
  progress(
    `seed ${seed} done: level ${result.level}/${finalLevel}, held-out pass@1 ${result.passAt1.toFixed(3)} on ${finalPrompts} prompts` +
      `${result.level < finalLevel ? ` (${result.passAt1Final.toFixed(3)} at ${base.curriculumParam} ${finalLevel})` : ''}` +
      `${result.headline === null ? '' : `, ${o.headlineName} ${result.headline.toFixed(3)}`}, ${result.steps} steps, ` +
      `${solvedAtStep === null ? 'not solved within budget' : `solved at step ${solvedAtStep}`}, ${result.seconds.toFixed(0)} s${fault ? ` (fault: ${fault})` : ''}`,
  );
  trainer.destroy();
  return result;
}

/** The run's settings, a row per seed, and the spread over seeds. */
function printReport(results: SeedResult[], o: LearningOptions, out: (line: string) => void): void {
  const { preset, sets, budget, base, finalLevel, target, finalPrompts } = o;
  out(
    `\npreset ${preset}${sets.length ? ` with ${sets.join(', ')}` : ''}, budget ${budget} steps, final level ${base.curriculumParam} = ${finalLevel}, ` +
      `stop at greedy pass@1 ≥ ${target}, final evaluation on ${finalPrompts} held-out prompts`,
  );
  out(
    formatTable(
      ['seed', 'level reached', 'held-out pass@1', 'at final level', o.headlineName, 'steps', 'solved at', 'time (s)'],
      results.map((r) => [
        String(r.seed),
        `${r.level}/${r.finalLevel}`,
        r.passAt1.toFixed(3),
        r.passAt1Final.toFixed(3),
        r.headline === null ? '–' : r.headline.toFixed(3),
        String(r.steps),
        r.solvedAtStep === null ? 'not within budget' : String(r.solvedAtStep),
        r.seconds.toFixed(0),
      ]),
    ),
  );
  const solved = results.filter((r) => r.solvedAtStep !== null).length;
  out(
    `solved ${solved}/${results.length} seeds; median held-out pass@1 ${median(results.map((r) => r.passAt1)).toFixed(3)}, ` +
      `range ${Math.min(...results.map((r) => r.passAt1)).toFixed(3)}–${Math.max(...results.map((r) => r.passAt1)).toFixed(3)}`,
  );
}

export const learningSuite: BenchSuite = {
  name: 'learning',
  summary:
    "train a preset on several seeds; report level reached, held-out pass@1, the task's headline metric (CoT alignment), steps and time per seed",
  flags: {
    preset: presetFlag('default cot-discovery'),
    seeds: commonFlag('seeds', 'comma-separated (default 0,1,2,3)'),
    steps: commonFlag('steps', "the budget per seed (default: the preset's steps, else 3000)"),
    set: commonFlag('set'),
    'check-every': { kind: 'value', doc: 'steps between held-out checks of the final level (default 50)' },
    target: {
      kind: 'value',
      doc: "greedy pass@1 at the final level that ends a seed early (default: the preset's curriculumTarget)",
    },
    'final-prompts': {
      kind: 'value',
      doc: "held-out prompts of the final evaluation (default 512, the probe's; the in-training checks use evalPrompts)",
    },
  },
  repeated: false,
  defaultReps: () => 1,
  async run(gpu, opts) {
    const o = learningOptions(opts);
    const results: SeedResult[] = [];
    for (const seed of o.seeds) results.push(await runSeed(gpu, seed, o, opts.progress));
    printReport(results, o, opts.out);
    const { preset, budget, finalLevel, target, finalPrompts, base, headline } = o;
    return { preset, budget, finalLevel, target, finalPrompts, config: base, headlineMetric: headline, results };
  },
};
