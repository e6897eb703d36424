// How a run goes on (trainer.ts, Trainer.run): the rest of the warm start, then RL steps until
// the end or a stop, with a turn of the event loop between steps so that signal handlers
// (Ctrl-C) and timers run. It drives the Trainer through its public methods only.

import type { RunConfig } from '../config/config';
import type { StepRecord } from './step-metrics';
import type { PhasedRunEvent, StepPhase } from './trainer-types';

/** Options of run(): how far, when to stop, and what to report on the way. */
export interface RunOptions {
  /** Stop when stepCount reaches this (default the config's steps; 0 = no end). */
  steps?: number;
  /** Asked between steps (and between warm-start steps). */
  shouldStop?: () => boolean;
  onWarmStartStep?: (done: number, loss: number) => void;
  /** Yield every step's phases too, not only its record (the worker steps phase by phase). */
  phases?: boolean;
}

/** What the loop drives: a Trainer (trainer.ts), by these public members only. */
export interface RunnableTrainer {
  readonly config: RunConfig;
  readonly stepCount: number;
  readonly sftStepsDone: number;
  readonly sftStepsRemaining: number;
  warmStart(opts: { shouldStop?: () => boolean; onStep?: (done: number, loss: number) => void }): Promise<number[]>;
  step(): Promise<StepRecord>;
  stepPhases(): AsyncGenerator<StepPhase | { record: StepRecord }>;
}

/** Trainer.run: the warm start's summary when it ran, then each step's phases (with `phases`) and record. */
export async function* runTrainer(t: RunnableTrainer, opts: RunOptions): AsyncGenerator<PhasedRunEvent> {
  const steps = opts.steps ?? t.config.steps;
  if (t.sftStepsRemaining > 0) {
    const losses = await t.warmStart({ shouldStop: opts.shouldStop, onStep: opts.onWarmStartStep });
    yield {
      warmStart: {
        steps: losses.length,
        done: t.sftStepsDone,
        of: t.config.sftSteps,
        firstLoss: losses[0],
        lastLoss: losses[losses.length - 1],
      },
    };
  }
  while ((await yieldToEventLoop(), !opts.shouldStop?.()) && (steps <= 0 || t.stepCount < steps)) {
    if (opts.phases) yield* t.stepPhases();
    else yield { record: await t.step() };
  }
}

/** One turn of the event loop (setImmediate where there is one), so that signal handlers and timers run between steps. */
export function yieldToEventLoop(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (f: () => void) => unknown }).setImmediate;
  return new Promise((resolve) => (immediate ? immediate(resolve) : setTimeout(resolve, 0)));
}
