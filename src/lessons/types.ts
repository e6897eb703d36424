// What a preset is: a named diff on the default config that is also a lesson (its guide steps,
// charts, comparison variants, trained checkpoints and the ablation it asks).

import type { KnobValue } from '../config/knobs';
import type { ChartId } from './charts';

export interface PresetVariant {
  /** Legend label of the comparison run. */
  readonly label: string;
  /** Diff on the preset's config. */
  readonly set: Readonly<Record<string, KnobValue>>;
}

/** What a guide step's "show me" points at: a chart of CHART_LIST (charts.ts), or a part of the lecture screen. */
export type GuideTarget = `chart-${ChartId}` | 'loop' | 'group' | 'play' | 'variants' | 'jump';

export interface GuideStep {
  /** One or two sentences a lecturer can read aloud. */
  readonly text: string;
  readonly show?: GuideTarget;
  /** What must have happened for the step to make sense: a whole step, or the advantages of one. */
  readonly needs?: 'step' | 'advantages';
}

/** A trained checkpoint shipped with the page (public/checkpoints/), to show the end state at once. */
export interface LessonCheckpoint {
  readonly label: string;
  /** Path under the site root, e.g. "checkpoints/cot-discovery-solved.safetensors". */
  readonly file: string;
  /** What it is and how it was made, one sentence. */
  readonly note: string;
}

/** What "solved" means for an ablation: the first step `metric` ≥ `target` (at level ≥ `level` when given). */
export interface PresetSolvedRule {
  /** A metric's machine name: "eval/pass@1_greedy" (held-out greedy pass@1), "level", "reward", … */
  readonly metric: string;
  readonly target: number;
  /** Only values measured at this curriculum level or above count (e.g. the final chain length). */
  readonly level?: number;
}

/**
 * The preset as a question answered over seeds (`rlvr sweep --preset NAME`, the page's ablation):
 * cells are the preset itself and the listed variants, and/or every combination of the grid's
 * values; each cell runs `seeds` seeds (0 … seeds − 1) for `steps` steps.
 */
export interface PresetAblation {
  /** The question, one sentence. */
  readonly question: string;
  /** What the literature claims (with its source), and that the answer here is what the runs show. */
  readonly literature: string;
  /** How to read the result: what each outcome would mean. */
  readonly reading: string;
  /** Variants (by label) run beside the preset itself, which is always the first cell. */
  readonly variants?: readonly string[];
  /** knob → values; the cells are every combination (times the variants when both are given). */
  readonly grid?: Readonly<Record<string, readonly KnobValue[]>>;
  /** Seeds per cell: 0 … seeds − 1. */
  readonly seeds: number;
  /** Steps per run. */
  readonly steps: number;
  readonly solved?: PresetSolvedRule;
  /** Metrics compared at the end, the main one first (default: held-out pass@1, reward, entropy). */
  readonly metrics?: readonly string[];
}

export interface Preset {
  readonly name: string;
  readonly title: string;
  /** One sentence: what the lesson shows. */
  readonly summary: string;
  /** Diff on `defaultConfig()` (task parameters as `task.<param>`). */
  readonly set: Readonly<Record<string, KnobValue>>;
  /** The recipe and paper details (folded away in the lecture view). */
  readonly explanation: string;
  /** Numbered steps for a lecturer, shown one at a time. */
  readonly guide: readonly GuideStep[];
  /** What measured runs of this preset did, e.g. "reward > 0.8 by step ≈ 150 (seeds 0–3)". */
  readonly expect: string;
  /**
   * Where the point needs a real GPU (a software GPU takes hours or more): one short line the
   * lecture view shows in full, with what the recorded runs did (or that there are none yet). Its
   * hours are `npm run bench -- lesson-speed`'s projection on a software GPU (docs/benchmarks.md).
   */
  readonly needsGpu?: string;
  /** The charts the lesson is about, the main one first (3–4). */
  readonly charts: readonly ChartId[];
  /** Comparison runs. */
  readonly variants?: readonly PresetVariant[];
  readonly checkpoints?: readonly LessonCheckpoint[];
  /**
   * The weights this lesson's RL starts from, when not random: one of `checkpoints` (its file,
   * e.g. a base model that walks). Its comparison variants and the runs of its ablation (the
   * page's and `rlvr sweep`'s) start from these weights, each with its own config and seed, as
   * `rlvr train --init` does; from random weights they would learn nothing. ▶ on a fresh lesson
   * still starts from random weights until the guide's first step loads the model.
   */
  readonly init?: string;
  /**
   * Maze lessons: recorded walks under public/ (`rlvr eval --branching G --walks-out FILE`, one
   * checkpoint per call), drawn behind the "ways to G" button beside the group's maze: the base model's distinct
   * correct walks beside a trained model's, on the same held-out mazes.
   */
  readonly walks?: string;
  /** The preset as an ablation over seeds, when it asks a question. */
  readonly ablation?: PresetAblation;
}
