// Runs slice: every run kept (config + metrics), which one is training, which are overlaid.
// Step records arrive in batches (the page flushes at most once per animation frame).

import type { StateCreator } from 'zustand';
import type { RunConfig } from '../config';
import type { EvalRecord, Phase, StepRecord } from '../rl/step-metrics';
import type { RolloutView } from '../worker/protocol';
import { appendRecords, makeRun, truncateRun, type RunRecord } from './kept-runs';
import type { AppState } from './store';

/** What arrived from the worker since the last flush. */
export interface TrainingBatch {
  records: StepRecord[];
  evals: EvalRecord[];
  rollout: RolloutView | null;
  phase: { phase: Phase; step: number } | null;
}

export interface RunsSlice {
  runs: RunRecord[];
  /** The run the worker's model belongs to (null until its first step). */
  activeRunId: string | null;
  /** Runs drawn on the charts besides the active one. */
  overlay: string[];
  /** Starts a new run for this config (a run left without steps is dropped); returns its id. */
  beginRun(
    config: RunConfig,
    preset: string | undefined,
    options?: { label?: string; importedFrom?: string; variant?: string },
  ): string;
  /**
   * A new model is being built: no run is active until its first step (the charts and the
   * numbers clear at once), and `overlay` becomes the runs drawn beside it.
   */
  detachActiveRun(overlay: string[]): void;
  /** Applies a flush of worker events: metrics to the active run, step counter, phase, rollout. */
  applyBatch(batch: TrainingBatch): void;
  /** Cuts the active run back to `step` (a resume from a checkpoint re-trains what follows). */
  truncateActiveRun(step: number): void;
  /** Makes a kept run the active one again, cut back to `step` (it continues from its checkpoint there). */
  reattachRun(id: string, step: number): void;
  addRun(run: RunRecord): void;
  /** Appends step records and evaluations to a kept run that is not the active one (an ablation's). */
  appendToRun(id: string, records: readonly StepRecord[], evals: readonly EvalRecord[]): void;
  removeRun(id: string): void;
  toggleOverlay(id: string): void;
  /** Runs loaded from storage, placed before any made in this session. */
  hydrateRuns(runs: RunRecord[]): void;
}

/** How many steps' rollouts the page keeps for a look back. */
export const ROLLOUT_HISTORY = 30;

function keepRecent(views: RolloutView[]): RolloutView[] {
  return views.length > ROLLOUT_HISTORY ? views.slice(views.length - ROLLOUT_HISTORY) : views;
}

export const createRunsSlice: StateCreator<AppState, [], [], RunsSlice> = (set, get) => ({
  runs: [],
  activeRunId: null,
  overlay: [],

  beginRun(config, preset, options = {}) {
    const { runs, activeRunId } = get();
    const kept = runs.filter((r) => r.id !== activeRunId || r.points.length > 0);
    const run = makeRun(kept, config, preset, options);
    set({ runs: [...kept, run], activeRunId: run.id });
    return run.id;
  },

  detachActiveRun(overlay) {
    const { runs, activeRunId } = get();
    // A run that never took a step is not worth keeping.
    const kept = runs.filter((r) => r.id !== activeRunId || r.points.length > 0);
    set({ runs: kept, activeRunId: null, overlay: overlay.filter((id) => kept.some((r) => r.id === id)) });
  },

  applyBatch({ records, evals, rollout, phase }) {
    const s = get();
    const patch: Partial<AppState> = {};
    if (records.length || evals.length) {
      const id = s.activeRunId;
      if (id) patch.runs = s.runs.map((r) => (r.id === id ? appendRecords(r, records, evals) : r));
      if (records.length) patch.step = records[records.length - 1].step;
    }
    if (rollout) {
      patch.rollout = rollout;
      // Whole steps are kept for a while, so a click on a chart can show an earlier step.
      if (!rollout.phase)
        patch.rolloutHistory = keepRecent([...s.rolloutHistory.filter((r) => r.step !== rollout.step), rollout]);
    }
    // Events arrive in order, so a phase in the batch is the latest news. After the 'update'
    // phase its step's record follows (maybe in the next batch) and the display stays on
    // 'update'; a step that came whole, without phases, clears the phase display.
    const lastStep = records.length ? records[records.length - 1].step : -1;
    if (phase) patch.phase = phase;
    else if (records.length && s.phase?.step !== lastStep) patch.phase = null;
    set(patch);
  },

  truncateActiveRun(step) {
    const { runs, activeRunId } = get();
    set({ runs: runs.map((r) => (r.id === activeRunId ? truncateRun(r, step) : r)) });
  },

  reattachRun(id, step) {
    const { runs, overlay } = get();
    set({
      runs: runs.map((r) => (r.id === id ? truncateRun(r, step) : r)),
      activeRunId: id,
      overlay: overlay.filter((o) => o !== id),
    });
  },

  addRun(run) {
    set({ runs: [...get().runs, run] });
  },

  appendToRun(id, records, evals) {
    if (records.length === 0 && evals.length === 0) return;
    set({ runs: get().runs.map((r) => (r.id === id ? appendRecords(r, records, evals) : r)) });
  },

  removeRun(id) {
    const { runs, overlay, activeRunId } = get();
    set({
      runs: runs.filter((r) => r.id !== id),
      overlay: overlay.filter((o) => o !== id),
      activeRunId: activeRunId === id ? null : activeRunId,
    });
  },

  toggleOverlay(id) {
    const { overlay } = get();
    set({ overlay: overlay.includes(id) ? overlay.filter((o) => o !== id) : [...overlay, id] });
  },

  hydrateRuns(stored) {
    const { runs } = get();
    const have = new Set(runs.map((r) => r.id));
    const older = stored.filter((r) => !have.has(r.id)).sort((a, b) => a.createdAt - b.createdAt);
    set({ runs: [...older, ...runs] });
  },
});
