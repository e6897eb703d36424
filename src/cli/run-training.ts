// The run loop of `rlvr train`, once its folder is ready and its trainer built: each step to
// metrics.jsonl and the terminal, the checkpoints asked for on the way, and the report of how the
// run ended (done, stopped, a fault, a GPU error) with its exit code.

import { etaText } from './eta';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Engines } from './engines';
import { fileErrorReason, writeFileAtomic, type LineLog } from './run-files';
import { CHECKPOINT, FAULT_CHECKPOINT, saveCheckpoint, type ResumeSource } from './checkpoint-files';
import { StopRequests, type StopReason } from './stop-requests';
import type { RunConfig } from '../config/config';
import { GpuError } from '../gpu/gpu-errors';
import { TrainingFault, type Trainer } from '../rl/trainer';
import type { StepRecord } from '../rl/step-metrics';

/** Exit codes besides 0 (done), 1 (crash or checkpoint rescued elsewhere) and 2 (usage). */
export const EXIT = { fault: 3, gpu: 4, interrupted: 130 } as const;

/** A one-line progress bar for a terminal. */
function progressLine(step: number, total: number, r: StepRecord, t0: number, eta: string): string {
  const width = 24;
  const frac = total > 0 ? step / total : 0;
  const filled = Math.round(frac * width);
  const s = r.scalars;
  const secs = (Date.now() - t0) / 1000;
  const evalPart = r.eval ? ` eval pass@1 ${r.eval['eval/pass@1_greedy'].toFixed(2)}` : '';
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${step}/${total} reward ${s.reward.toFixed(3)} pass@1 ${s['pass@1'].toFixed(2)} entropy ${s.entropy.toFixed(2)} level ${r.level}${evalPart} ${secs.toFixed(0)}s${eta ? ` ${eta}` : ''}`;
}

type Outcome =
  | { kind: 'done' }
  | { kind: 'stopped'; signal: StopReason }
  | { kind: 'fault'; fault: TrainingFault }
  | { kind: 'gpu'; error: GpuError };

/**
 * Saves `name` in `dir`, or, when that fails (full disk, folder gone), in a fresh rescue folder
 * under the system's temporary folder. Returns where it went, or null when both failed.
 */
async function saveOrRescue(
  trainer: Trainer,
  dir: string,
  name: string,
  err: (s: string) => void,
): Promise<{ path: string; rescued: boolean } | null> {
  try {
    return { path: await saveCheckpoint(trainer, dir, name), rescued: false };
  } catch (e) {
    const why = fileErrorReason(e);
    try {
      const rescue = mkdtempSync(join(tmpdir(), 'rlvr-rescue-'));
      const path = await saveCheckpoint(trainer, rescue, name);
      err(
        `error: cannot write ${join(dir, name)} (${why}); the checkpoint and its state were saved to ${path} instead`,
      );
      return { path, rescued: true };
    } catch (e2) {
      err(
        `error: cannot write ${join(dir, name)} (${why}), nor a rescue copy (${fileErrorReason(e2)}); this run's weights are lost`,
      );
      return null;
    }
  }
}

export interface RunContext {
  config: RunConfig;
  dir: string;
  metrics: LineLog;
  engines: Engines;
  resume: ResumeSource | null;
  /** --init's checkpoint, named in the summary. */
  initFrom: string | null;
  checkpointEvery: number;
  checkpointAt: ReadonlySet<number>;
  levels: boolean;
  json: boolean;
  out: (s: string) => void;
  err: (s: string) => void;
}

/** A checkpoint the run can be continued from, and its step. */
type LastGood = { path: string; step: number } | null;

/** What the loop keeps up to date for the report after it, even when a step throws. */
interface RunState {
  lastGood: LastGood;
}

/** How the progress is shown: a bar on a terminal, lines otherwise; t0 is when the run began. */
interface Display {
  tty: boolean;
  t0: number;
}

export async function runTraining(trainer: Trainer, ctx: RunContext): Promise<number> {
  const { config, json, err } = ctx;
  const steps = config.steps;
  const tty = !json && process.stderr.isTTY;
  const t0 = Date.now();
  const state: RunState = {
    lastGood: ctx.resume ? { path: ctx.resume.path, step: ctx.resume.run.trainedSteps } : null,
  };

  // Ctrl-C, a kill, a closed terminal or the end of the sweep that started the run end it after
  // the current step (warm-start steps included), still writing the checkpoint (stop-requests.ts).
  const stops = new StopRequests(err, () => process.exit(EXIT.interrupted)).install();

  let outcome: Outcome = { kind: 'done' };
  try {
    const every = Math.max(1, Math.floor(config.sftSteps / 10));
    const run = trainer.run({
      steps,
      shouldStop: () => stops.stopReason !== null,
      onWarmStartStep: (done, loss) => {
        if (done % every === 0 || done === config.sftSteps)
          err(`warm start: step ${done}/${config.sftSteps}, loss ${loss.toFixed(4)}`);
      },
    });
    await followRun(trainer, ctx, run, state, { tty, t0 });
    if (stops.stopReason) outcome = { kind: 'stopped', signal: stops.stopReason };
  } catch (e) {
    if (e instanceof TrainingFault) outcome = { kind: 'fault', fault: e };
    else if (e instanceof GpuError) outcome = { kind: 'gpu', error: e };
    else throw e;
  } finally {
    stops.uninstall();
    if (tty) process.stderr.write('\n');
  }

  if (outcome.kind === 'gpu') return reportGpuError(ctx, outcome.error, state.lastGood);
  if (outcome.kind === 'fault') return reportFault(trainer, ctx, outcome.fault, state.lastGood);
  return reportDone(trainer, ctx, outcome.kind === 'stopped' ? outcome.signal : null, t0);
}

/**
 * Goes through the run's events: each line to metrics.jsonl (and stdout with --json), the
 * progress to stderr, and the checkpoints asked for on the way (state.lastGood follows them).
 */
async function followRun(
  trainer: Trainer,
  ctx: RunContext,
  run: ReturnType<Trainer['run']>,
  state: RunState,
  display: Display,
): Promise<void> {
  const { config, dir, metrics, json, out, err } = ctx;
  const steps = config.steps;
  let levelSaved = trainer.level;
  // A checkpoint beside the run's own (weights and header, no trainer state); a failure to
  // write it is reported and the run goes on.
  const saveSide = async (name: string): Promise<void> => {
    try {
      writeFileAtomic(join(dir, name), await trainer.checkpoint());
    } catch (e) {
      err(`warning: cannot write ${name} (${fileErrorReason(e)}); the run goes on`);
    }
  };
  const saveLevel = (): Promise<void> => saveSide(`checkpoint-level${trainer.level}.safetensors`);
  // The weights the first level starts with: after the warm start (a base model), or as they
  // are when there is none; a resumed run past its start already has them.
  const startsNow = trainer.stepCount === 0;
  let pace: { t: number; step: number } | null = null;
  if (ctx.levels && startsNow && trainer.sftStepsRemaining === 0) await saveLevel();
  for await (const event of run) {
    if ('warmStart' in event) {
      const line = JSON.stringify(event);
      metrics.append(line, 'the warm start');
      if (json) out(line);
      if (ctx.levels && startsNow && event.warmStart.done === event.warmStart.of) await saveLevel();
      continue;
    }
    const r = event.record;
    const line = JSON.stringify(r);
    metrics.append(line, r.step);
    // The pace from this process's first step (not the warm start, not a resumed run's past).
    pace ??= { t: Date.now(), step: r.step };
    const eta = etaText((Date.now() - pace.t) / 1000, r.step - pace.step, steps - pace.step);
    if (json) out(line);
    else if (display.tty) process.stderr.write(`\r${progressLine(r.step, steps, r, display.t0, eta)}\x1b[K`);
    else if (r.step % 10 === 0 || r.step === steps || r.eval) err(progressLine(r.step, steps, r, display.t0, eta));
    if (ctx.checkpointEvery > 0 && r.step % ctx.checkpointEvery === 0) {
      try {
        state.lastGood = { path: await saveCheckpoint(trainer, dir, CHECKPOINT), step: r.step };
      } catch (e) {
        err(`warning: cannot write the step-${r.step} checkpoint in ${dir} (${fileErrorReason(e)}); the run goes on`);
      }
    }
    if (ctx.checkpointAt.has(r.step)) await saveSide(`checkpoint-step${r.step}.safetensors`);
    if (ctx.levels && trainer.level > levelSaved) {
      levelSaved = trainer.level;
      await saveLevel();
    }
    // Let signals in: the CPU engine's steps never wait on I/O, so without this a Ctrl-C
    // would only be seen after the last step.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** A GPU error: said, with the last good checkpoint to continue from. */
function reportGpuError(ctx: RunContext, error: GpuError, lastGood: LastGood): number {
  const { json, out, err } = ctx;
  err(
    `error: ${error.message}\n${lastGood ? `The last good checkpoint is ${lastGood.path} (step ${lastGood.step}).` : 'No checkpoint was written before it (--checkpoint-every N writes one every N steps).'}`,
  );
  if (json)
    out(
      JSON.stringify({
        gpuError: {
          kind: error.kind,
          message: error.message,
          lastCheckpoint: lastGood?.path ?? null,
        },
      }),
    );
  return EXIT.gpu;
}

/** A run done or stopped: its checkpoint is written (or rescued) and its summary said. */
async function reportDone(
  trainer: Trainer,
  ctx: RunContext,
  stoppedBy: StopReason | null,
  t0: number,
): Promise<number> {
  const { dir, metrics, json, out, err } = ctx;
  const lost = metrics.failures > 0 ? { metricsLinesLost: metrics.failures } : {};
  const saved = await saveOrRescue(trainer, dir, CHECKPOINT, err);
  const summary = {
    out: dir,
    steps: trainer.stepCount,
    level: trainer.level,
    seconds: (Date.now() - t0) / 1000,
    adapter: ctx.engines.adapter,
    checkpoint: saved?.path ?? null,
    ...(ctx.resume ? { resumedFrom: ctx.resume.path } : {}),
    ...(ctx.initFrom ? { initFrom: ctx.initFrom } : {}),
    ...(stoppedBy ? { stoppedBy } : {}),
    ...lost,
  };
  if (json) out(JSON.stringify({ done: summary }));
  else {
    out(
      `wrote ${dir}/config.json, metrics.jsonl${saved && !saved.rescued ? ', checkpoint.safetensors' : ''} (${summary.steps} steps` +
        `${stoppedBy ? `, stopped by ${stoppedBy}` : ''}, ${summary.seconds.toFixed(1)} s on ${summary.adapter})`,
    );
  }
  if (metrics.failures > 0) err(`warning: ${metrics.failures} line(s) could not be written to ${metrics.path}`);
  if (!saved || saved.rescued) return 1;
  // 130: the shell's code for an interrupted command, so scripts can tell a stopped run.
  return stoppedBy ? EXIT.interrupted : 0;
}

/**
 * A fault: the trainer has rolled the step back. Those weights go to checkpoint-before-fault
 * (when finite); checkpoint.safetensors, the last good checkpoint, is left as it is.
 */
async function reportFault(
  trainer: Trainer,
  ctx: RunContext,
  fault: TrainingFault,
  lastGood: LastGood,
): Promise<number> {
  const { dir, json, out, err } = ctx;
  const params = await trainer.engine.readParams();
  const finite = params.every(Number.isFinite);
  let kept: string | null = null;
  if (finite) kept = (await saveOrRescue(trainer, dir, FAULT_CHECKPOINT, err))?.path ?? null;
  const at = fault.step > 0 ? `step ${fault.step}` : 'the warm start';
  const lines = [`paused: ${fault.message}`];
  if (kept) lines.push(`The weights from before ${at} (and their trainer state) are in ${kept}.`);
  else if (!finite) lines.push("The weights are not finite: nothing was saved from this run's last step.");
  lines.push(
    lastGood
      ? `The last good checkpoint, ${lastGood.path} (step ${lastGood.step}), is kept as it was.`
      : 'No earlier checkpoint was written (--checkpoint-every N writes one every N steps).',
  );
  const from = kept ?? lastGood?.path;
  const knob = fault.step > 0 ? 'lr' : 'sftLr';
  if (from && fault.check === 'custom-code')
    lines.push(
      `Fix the code, then continue: npm run rlvr -- train --resume ${from} --${fault.code?.kind === 'reward' ? 'reward' : 'estimator'}-file <fixed file>`,
    );
  else if (from)
    lines.push(`Continue with a lower learning rate: npm run rlvr -- train --resume ${from} --set ${knob}=<lower>`);
  err(lines.join('\n'));
  if (json)
    out(
      JSON.stringify({
        fault: {
          step: fault.step,
          check: fault.check,
          tensors: fault.tensors,
          message: fault.message,
          checkpoint: kept,
          lastGood: lastGood?.path ?? null,
        },
      }),
    );
  return EXIT.fault;
}
