// UI slice: what the person chose to see, and the sweep queue.

import type { StateCreator } from 'zustand';
import type { RunConfig } from '../config';
import type { AppState } from './store';

export interface SweepState {
  knob: string;
  /** The configs still to run, in order (the first is running when `running`). */
  queue: RunConfig[];
  /** How many were in the sweep. */
  total: number;
  running: boolean;
}

export interface UiSlice {
  /** The preset's guided explanation is shown (a lecturer may hide it). */
  showGuide: boolean;
  sweep: SweepState | null;
  /** A short notice for the person (import done, export failed, …). */
  notice: { kind: 'info' | 'error'; text: string } | null;
  setShowGuide(show: boolean): void;
  setSweep(sweep: SweepState | null): void;
  notify(kind: 'info' | 'error', text: string): void;
  clearNotice(): void;
}

export const createUiSlice: StateCreator<AppState, [], [], UiSlice> = (set) => ({
  showGuide: true,
  sweep: null,
  notice: null,
  setShowGuide(show) {
    set({ showGuide: show });
  },
  setSweep(sweep) {
    set({ sweep });
  },
  notify(kind, text) {
    set({ notice: { kind, text } });
  },
  clearNotice() {
    set({ notice: null });
  },
});
