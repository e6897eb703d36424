// Ablation slice: a grid of runs (cells × seeds) trained several at once in the page, and how
// far each run is. The runs themselves are ordinary kept runs (runs slice), found by id; an
// imported ablation carries its runs with it, for viewing only.

import type { StateCreator } from 'zustand';
import type { AblationCellSpec, AblationSpec } from '../ablation/spec';
import type { RunRecord } from './kept-runs';
import type { AppState } from './store';

export type AblationJobStatus = 'queued' | 'running' | 'done' | 'failed';

export interface AblationJob {
  /** The cell's label (src/ablation/spec.ts). */
  cell: string;
  seed: number;
  /** The kept run it writes into (made when the job is queued). */
  runId: string;
  status: AblationJobStatus;
  /** Steps done. */
  step: number;
  /** Why it failed. */
  message?: string;
}

export interface AblationState {
  spec: AblationSpec;
  cells: AblationCellSpec[];
  jobs: AblationJob[];
  /** Runs trained at once. */
  concurrency: number;
  startedAt: number;
  finishedAt: number | null;
  /** An ablation read from a file: its runs come with it (name of the file). */
  importedFrom?: string;
  importedRuns?: RunRecord[];
}

export interface AblationSlice {
  ablation: AblationState | null;
  setAblation(a: AblationState | null): void;
  updateAblationJob(runId: string, patch: Partial<Pick<AblationJob, 'status' | 'step' | 'message'>>): void;
  finishAblation(at: number): void;
}

export const createAblationSlice: StateCreator<AppState, [], [], AblationSlice> = (set, get) => ({
  ablation: null,
  setAblation(ablation) {
    set({ ablation });
  },
  updateAblationJob(runId, patch) {
    const a = get().ablation;
    if (!a) return;
    set({ ablation: { ...a, jobs: a.jobs.map((j) => (j.runId === runId ? { ...j, ...patch } : j)) } });
  },
  finishAblation(at) {
    const a = get().ablation;
    if (a) set({ ablation: { ...a, finishedAt: at } });
  },
});

/** The runs of an ablation, in job order (kept runs, or the imported ones). */
export function ablationRuns(state: Pick<AppState, 'runs' | 'ablation'>): RunRecord[] {
  const a = state.ablation;
  if (!a) return [];
  const pool = a.importedRuns ?? state.runs;
  const byId = new Map(pool.map((r) => [r.id, r]));
  return a.jobs.map((j) => byId.get(j.runId)).filter((r): r is RunRecord => r !== undefined);
}
