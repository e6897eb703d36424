// Training slice: what the worker is doing, as the page knows it from its events.

import type { StateCreator } from 'zustand';
import type { RunConfig } from '../config';
import type { Phase } from '../rl/step-metrics';
import type { LearnedTable, RolloutView } from '../worker/protocol';
import type { AppState } from './store';

export type TrainingStatus =
  /** The worker is building the model (init sent, no 'ready' yet). */
  | 'starting'
  /** A model is ready and not running. */
  | 'idle'
  | 'running'
  /** Stopped by a non-finite step (see `fault`). */
  | 'fault'
  /** The GPU device was lost; a resume re-creates it from the last checkpoint. */
  | 'lost'
  /** The worker reported an error (see `error`). */
  | 'error';

export interface Fault {
  step: number;
  message: string;
  tensors: string[];
  /** Which check fired: non-finite values, or a finite blow-up (update norm, weight norm). */
  check?: string;
}

/**
 * A lesson's trained model the current model was loaded from (the trained menu, or an imported
 * checkpoint of a lesson): the charts draw that lesson's recorded runs up to `step`, the one of
 * `seed` marked as the run the model came from.
 */
export interface Jump {
  /** The lesson whose recorded runs (public/reference/<preset>.json) are drawn. */
  preset: string;
  /** The step the model was trained to. */
  step: number;
  /** The seed of the run that made it. */
  seed: number;
  /** The file it was loaded from (the run it continues names it as importedFrom). */
  file: string;
  /** Its label in the lesson's trained menu ("step 800"); absent for an imported file. */
  label?: string;
}

/** What the page knows of the worker (TrainingSlice without its actions). */
export interface TrainingState {
  status: TrainingStatus;
  /** Steps completed by the current model. */
  step: number;
  /** The latest phase reported, with the step it belongs to (null once a step completes whole). */
  phase: { phase: Phase; step: number } | null;
  /** The config the worker's model was built with (null before the first init). */
  trainerConfig: RunConfig | null;
  adapter: string | null;
  numParams: number;
  /** Delay between steps in ms (0 = as fast as possible). */
  delayMs: number;
  fault: Fault | null;
  error: { kind: string; message: string } | null;
  /** Step of the last checkpoint the page keeps (for a resume after a device loss). */
  checkpointStep: number | null;
  /** The latest step's (or phase's) rollouts, for the inspector. */
  rollout: RolloutView | null;
  /** The last ROLLOUT_HISTORY whole steps' rollouts, oldest first (a chart click shows one). */
  rolloutHistory: RolloutView[];
  /** A pause was asked for and the step in progress has not finished yet. */
  pausing: boolean;
  learnedTable: { table: LearnedTable | null; step: number } | null;
  /** A run whose checkpoint was kept across a reload, offered to continue (null: none). */
  keptRun: { runId: string; step: number } | null;
  /** The supervised warm start in progress before the model is ready (null: none running). */
  warmStart: { done: number; of: number; loss: number } | null;
  /** The lesson checkpoint the current model was loaded from (null: none). */
  jump: Jump | null;
}

export interface TrainingSlice extends TrainingState {
  /** The worker is (re)building the model for this config. */
  trainingStarting(config: RunConfig, step: number): void;
  /** A pause was sent to a running session. */
  pauseRequested(): void;
  trainingReady(adapter: string, numParams: number): void;
  setRunning(running: boolean, step: number): void;
  setDelay(ms: number): void;
  trainingFault(fault: Fault): void;
  trainingError(kind: string, message: string): void;
  setCheckpointStep(step: number | null): void;
  setLearnedTable(table: LearnedTable | null, step: number): void;
  setKeptRun(kept: { runId: string; step: number } | null): void;
  setWarmStart(progress: { done: number; of: number; loss: number }): void;
  dismissError(): void;
  setJump(jump: Jump | null): void;
  /** A group sampled from the model without an update (a loaded model's preview), shown as the latest rollouts. */
  setPreviewRollout(rollout: RolloutView): void;
}

/** Before the first model: nothing built, nothing run. */
function initialTraining(): TrainingState {
  return {
    status: 'starting',
    step: 0,
    phase: null,
    trainerConfig: null,
    adapter: null,
    numParams: 0,
    delayMs: 0,
    fault: null,
    error: null,
    checkpointStep: null,
    rollout: null,
    rolloutHistory: [],
    pausing: false,
    learnedTable: null,
    keptRun: null,
    warmStart: null,
    jump: null,
  };
}

export const createTrainingSlice: StateCreator<AppState, [], [], TrainingSlice> = (set, get) => ({
  ...initialTraining(),

  trainingStarting(config, step) {
    set({
      status: 'starting',
      trainerConfig: config,
      step,
      phase: null,
      fault: null,
      error: null,
      rollout: null,
      rolloutHistory: [],
      learnedTable: null,
      pausing: false,
      warmStart: null,
    });
  },
  pauseRequested() {
    if (get().status === 'running') set({ pausing: true });
  },
  trainingReady(adapter, numParams) {
    set({ status: 'idle', adapter, numParams, warmStart: null });
  },
  setRunning(running, step) {
    const { status } = get();
    // A fault, a loss or an error outranks the 'not running' that follows it.
    if (!running && (status === 'fault' || status === 'lost' || status === 'error' || status === 'starting')) {
      set({ pausing: false });
      return;
    }
    set({ status: running ? 'running' : 'idle', step: Math.max(step, 0), pausing: running ? get().pausing : false });
  },
  setDelay(ms) {
    set({ delayMs: ms });
  },
  trainingFault(fault) {
    set({ status: 'fault', fault, pausing: false });
  },
  trainingError(kind, message) {
    set({
      status: kind === 'device-lost' ? 'lost' : 'error',
      error: { kind, message },
      pausing: false,
      warmStart: null,
    });
  },
  setCheckpointStep(step) {
    set({ checkpointStep: step });
  },
  setLearnedTable(table, step) {
    set({ learnedTable: { table, step } });
  },
  setKeptRun(keptRun) {
    set({ keptRun });
  },
  setWarmStart(warmStart) {
    set({ warmStart });
  },
  dismissError() {
    set({ error: null, status: get().trainerConfig ? 'idle' : get().status });
  },
  setJump(jump) {
    set({ jump });
  },
  setPreviewRollout(rollout) {
    // A step that came first has the newer rollouts.
    if (get().rollout && !get().rollout!.preview) return;
    set({ rollout });
  },
});
