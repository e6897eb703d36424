// Worker events into the store, batched: what arrives between two animation frames is applied
// in one update (docs/architecture.md, "The page and the worker"). The first step of a new run
// creates the run in the store.

import type { RunConfig } from '../../config';
import type { EvalRecord, StepRecord } from '../../rl/step-metrics';
import type { TrainingBatch } from '../../store/runsSlice';
import type { AppStore } from '../../store/store';

/** A run to begin at its first step. */
export interface PendingRun {
  config: RunConfig;
  preset: string | undefined;
  label?: string;
  importedFrom?: string;
  variant?: string;
}

export class EventBatcher {
  private pending: TrainingBatch = emptyBatch();
  private flushScheduled = false;
  /** The next init begins a new run (created at its first step). */
  newRun: PendingRun | null = null;

  constructor(
    private readonly store: AppStore,
    private readonly requestFrame: (fn: () => void) => void,
  ) {}

  /** Drops what arrived and is not applied yet (a new model's events replace the old one's). */
  discard(): void {
    this.pending = emptyBatch();
  }

  phase(phase: TrainingBatch['phase'], rollout: TrainingBatch['rollout']): void {
    this.pending.phase = phase;
    this.pending.rollout = rollout;
    this.schedule();
  }

  step(record: StepRecord, rollout: TrainingBatch['rollout']): void {
    this.pending.records.push(record);
    this.pending.rollout = rollout;
    this.schedule();
  }

  /** Every held-out evaluation comes as its own event (also those inside a step record). */
  eval(record: EvalRecord): void {
    this.pending.evals.push(record);
    this.schedule();
  }

  /** Applies what arrived since the last frame to the store, in one update. */
  flush(): void {
    this.flushScheduled = false;
    const batch = this.pending;
    this.discard();
    const state = () => this.store.getState();
    if (batch.records.length && this.newRun) {
      const { config, preset, label, importedFrom, variant } = this.newRun;
      this.newRun = null;
      const id = state().beginRun(config, preset, { label, importedFrom, variant });
      const sweep = state().sweep;
      if (sweep) state().setSweep({ ...sweep, runIds: [...(sweep.runIds ?? []), id] });
    }
    if (batch.records.length || batch.evals.length || batch.rollout || batch.phase) state().applyBatch(batch);
  }

  private schedule(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    this.requestFrame(() => this.flush());
  }
}

function emptyBatch(): TrainingBatch {
  return { records: [], evals: [], rollout: null, phase: null };
}
