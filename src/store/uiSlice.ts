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
  /** The runs the sweep has made so far (each new one is overlaid on them). */
  runIds?: string[];
}

/** lecture: one screen (loop, the lesson's charts, one group, the guide); dashboard: everything. */
export type ViewMode = 'lecture' | 'dashboard';

/** What the drawer shows, when open. */
export type DrawerTab = 'settings' | 'runs' | 'charts' | 'ablation' | 'code';

export interface UiSlice {
  /** The preset's guided explanation is shown (a lecturer may hide it). */
  showGuide: boolean;
  sweep: SweepState | null;
  /** A short notice for the person (import done, export failed, …). */
  notice: { kind: 'info' | 'error'; text: string } | null;
  view: ViewMode;
  /** Lecture zoom: every text at least 16 px, for a projector. */
  zoom: boolean;
  drawer: DrawerTab | null;
  /** The guide step shown (0-based). */
  guideStep: number;
  /** The element a guide's "show me" points at (a data-highlight name), for a moment. */
  highlight: string | null;
  /** The group (prompt index b) shown in the lecture's group panel. */
  groupIndex: number;
  /** Show the special tokens (<bos>, <eos>, …) in rollouts. */
  showSpecial: boolean;
  /** A step picked on a chart: its kept rollouts are shown instead of the latest (null: live). */
  viewStep: number | null;
  setShowGuide(show: boolean): void;
  setSweep(sweep: SweepState | null): void;
  notify(kind: 'info' | 'error', text: string): void;
  clearNotice(): void;
  setView(view: ViewMode): void;
  setZoom(zoom: boolean): void;
  setDrawer(tab: DrawerTab | null): void;
  setGuideStep(step: number): void;
  setHighlight(target: string | null): void;
  setGroupIndex(b: number): void;
  setShowSpecial(show: boolean): void;
  setViewStep(step: number | null): void;
}

export const createUiSlice: StateCreator<AppState, [], [], UiSlice> = (set) => ({
  showGuide: true,
  sweep: null,
  notice: null,
  view: 'lecture',
  zoom: false,
  drawer: null,
  guideStep: 0,
  highlight: null,
  groupIndex: 0,
  showSpecial: false,
  viewStep: null,
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
  setView(view) {
    set({ view });
  },
  setZoom(zoom) {
    set({ zoom });
  },
  setDrawer(drawer) {
    set({ drawer });
  },
  setGuideStep(guideStep) {
    set({ guideStep: Math.max(0, guideStep) });
  },
  setHighlight(highlight) {
    set({ highlight });
  },
  setGroupIndex(groupIndex) {
    set({ groupIndex: Math.max(0, groupIndex) });
  },
  setShowSpecial(showSpecial) {
    set({ showSpecial });
  },
  setViewStep(viewStep) {
    set({ viewStep });
  },
});
