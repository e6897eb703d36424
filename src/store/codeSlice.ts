// Code slice: the run's own code as the page handles it (docs/custom-estimators.md). Code that came
// from outside (a shared link, an imported checkpoint) waits for the person to read it: it never
// runs until they press Run. And the last failure of a run's code, to mark its line.

import type { StateCreator } from 'zustand';
import { activeCode, CODE_KINDS, isShippedCode, type CodeKind, type RunConfig } from '../config';
import type { AppState } from './store';

/** Code from outside that has not been read yet, and where it came from. */
export interface CodeReview {
  source: 'link' | 'file';
  /** The sources waiting; an edit in the page makes new code, which is the person's own. */
  sources: string[];
}

/** The last failure of a run's code (from a fault or a refused load). */
export interface CodeFailure {
  kind: CodeKind;
  line?: number;
  column?: number;
  message: string;
  /** The step it stopped (absent: the code did not load). */
  step?: number;
}

export interface CodeSlice {
  codeReview: CodeReview | null;
  codeFailure: CodeFailure | null;
  /** The code the code panel shows. */
  codeTab: CodeKind;
  setCodeTab(kind: CodeKind): void;
  /** Puts the active code of `config` that the page did not ship up for review (nothing: no review). */
  reviewCodeOf(config: RunConfig, source: CodeReview['source']): void;
  /** The person read the code and pressed Run. */
  approveCode(): void;
  setCodeFailure(failure: CodeFailure | null): void;
  /** Nothing is being built while code waits: the page is idle, not starting (no model yet). */
  holdForReview(): void;
}

/** The code of `config` that would run and is waiting for review. */
export function unreviewedCode(state: Pick<CodeSlice, 'codeReview'>, config: RunConfig): CodeKind[] {
  const review = state.codeReview;
  if (!review) return [];
  const code = activeCode(config);
  return CODE_KINDS.filter((k) => code[k] !== undefined && review.sources.includes(code[k]!));
}

export const createCodeSlice: StateCreator<AppState, [], [], CodeSlice> = (set, get) => ({
  codeReview: null,
  codeFailure: null,
  codeTab: 'estimator',
  setCodeTab(codeTab) {
    set({ codeTab });
  },
  reviewCodeOf(config, source) {
    const sources = Object.values(activeCode(config)).filter((s) => !isShippedCode(s));
    set({ codeReview: sources.length ? { source, sources } : null });
  },
  approveCode() {
    set({ codeReview: null });
  },
  setCodeFailure(codeFailure) {
    set({ codeFailure });
  },
  holdForReview() {
    if (get().status === 'starting' && get().trainerConfig === null) set({ status: 'idle' });
  },
});
