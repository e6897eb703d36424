// The page's store: zustand slices of plain data (config, training, runs, ui, ablation). Components read
// it through selectors (useApp(s => s.step)); the controller (src/ui/controller.ts) writes the
// worker's events into it.

import { createStore, useStore, type StoreApi } from 'zustand';
import { createConfigSlice, type ConfigSlice } from './configSlice';
import { createTrainingSlice, type TrainingSlice } from './trainingSlice';
import { createRunsSlice, type RunsSlice } from './runsSlice';
import { createUiSlice, type UiSlice } from './uiSlice';
import { createAblationSlice, type AblationSlice } from './ablationSlice';
import { createCodeSlice, type CodeSlice } from './codeSlice';

export type AppState = ConfigSlice & TrainingSlice & RunsSlice & UiSlice & AblationSlice & CodeSlice;
export type AppStore = StoreApi<AppState>;

/** A fresh store (tests make their own; the page uses `appStore`). */
export function createAppStore(): AppStore {
  return createStore<AppState>()((...a) => ({
    ...createConfigSlice(...a),
    ...createTrainingSlice(...a),
    ...createRunsSlice(...a),
    ...createUiSlice(...a),
    ...createAblationSlice(...a),
    ...createCodeSlice(...a),
  }));
}

export const appStore = createAppStore();

/** Reads the page's store through a selector; re-renders only when the selected value changes. */
export function useApp<T>(selector: (s: AppState) => T): T {
  return useStore(appStore, selector);
}
