// Recorded walks: several models' distinct correct walks on the same held-out mazes, G sampled
// walks per maze (`rlvr eval --branching G --walks-out FILE`, one checkpoint per call). The maze
// lesson draws them side by side, so the base model's ways to the goal can be set beside the
// trained model's (BODHI's branching, drawn). Each model also keeps its raw walks (the sampled
// ones, failed walks included, and the greedy one, as completion tokens up to and including the
// first end token) and every figure it reported, so an outside checker can recompute them.

import type { BranchingSummary, CorrectWalk, MazeBranching } from './branching';
import { MOVE_DELTAS, MOVE_NAMES } from './gen';
import type { MazeInstance } from './board';
import type { Cell } from './paths';

/** A maze as the file keeps it: what drawing needs. */
export interface RecordedMaze {
  grid: string[];
  start: [number, number];
  goal: [number, number];
  shortest: number;
  shortestPaths: number;
}

/** One model's walks on the file's mazes. */
export interface RecordedModel {
  /** Shown above its boards, e.g. "base model" or "step 2,400". */
  label: string;
  /** The checkpoint's file name (no folder). */
  checkpoint: string;
  /** Training step the checkpoint holds. */
  step: number;
  walksPerMaze: number;
  /** Means over the mazes (branching.ts). */
  passAt1: number;
  passAtG: number;
  distinctCorrect: number;
  shortestFound: number;
  /** walks[b]: maze b's distinct correct walks, the most taken first. */
  walks: CorrectWalk[][];
  /** Every branching figure (branching.ts; NaN is null in the file), and each maze's. Absent in files written before they were kept. */
  branching?: BranchingSummary;
  perMaze?: MazeBranching[];
  /** sampled[b][g]: walk g of maze b as completion tokens (ids into the file's vocab), up to and including the first end token. */
  sampled?: number[][][];
  /** greedy[b]: maze b's greedy walk, the same way. */
  greedy?: number[][];
}

export interface RecordedWalks {
  kind: 'maze-walks';
  /** The command line that made the file, for anyone who wants to make it again. */
  source: string;
  /** The token texts by id, the task's params (every maze's) and the completion length, to read the raw walks. */
  vocab?: string[];
  params?: Record<string, unknown>;
  completionLength?: number;
  mazes: RecordedMaze[];
  models: RecordedModel[];
}

export function recordedMaze(inst: MazeInstance): RecordedMaze {
  return {
    grid: [...inst.grid],
    start: [...inst.start],
    goal: [...inst.goal],
    shortest: inst.shortest,
    shortestPaths: inst.shortestPaths,
  };
}

/** A walk's tokens up to and including the first end token (what follows it is never read). */
export function rawWalk(tokens: ArrayLike<number>, eos: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    out.push(tokens[i]);
    if (tokens[i] === eos) break;
  }
  return out;
}

/** The raw walks a model keeps besides its numbers (sampled[b][g], greedy[b]: completion tokens). */
export interface RawWalks {
  perMaze: MazeBranching[];
  sampled: number[][][];
  greedy: number[][];
}

export function recordedModel(
  label: string,
  checkpoint: string,
  step: number,
  summary: BranchingSummary,
  walks: CorrectWalk[][],
  raw?: RawWalks,
): RecordedModel {
  const G = summary.walksPerMaze;
  return {
    label,
    checkpoint,
    step,
    walksPerMaze: G,
    passAt1: summary.passAtK[0] ?? NaN,
    passAtG: summary.passAtK[G - 1] ?? NaN,
    distinctCorrect: summary.distinctCorrect,
    shortestFound: summary.shortestFound,
    walks,
    ...(raw ? { branching: summary, perMaze: raw.perMaze, sampled: raw.sampled, greedy: raw.greedy } : {}),
  };
}

const sameMaze = (a: RecordedMaze, b: RecordedMaze): boolean =>
  a.grid.join('/') === b.grid.join('/') && a.start.join() === b.start.join() && a.goal.join() === b.goal.join();

/** Why `mazes` are not the file's mazes (every model of a file walks the same mazes), or null. */
export function mazesMismatch(file: RecordedWalks, mazes: readonly RecordedMaze[]): string | null {
  const again = 'judge every model with the same --n, --seed and --param';
  if (file.mazes.length !== mazes.length)
    return `the file holds walks on ${file.mazes.length} mazes and this checkpoint walks ${mazes.length}: ${again}`;
  const b = mazes.findIndex((m, i) => !sameMaze(m, file.mazes[i]));
  return b >= 0 ? `maze ${b + 1} differs from the file's: ${again}` : null;
}

/** `file` with `model` added (a model of the same label is replaced), or a new file when `file` is null. */
export function withRecordedModel(
  file: RecordedWalks | null,
  source: string,
  mazes: RecordedMaze[],
  model: RecordedModel,
  reading: Pick<RecordedWalks, 'vocab' | 'params' | 'completionLength'> = {},
): RecordedWalks {
  if (!file) return { kind: 'maze-walks', source, ...reading, mazes, models: [model] };
  const mismatch = mazesMismatch(file, mazes);
  if (mismatch) throw new Error(mismatch);
  const models = file.models.filter((m) => m.label !== model.label);
  return {
    ...file,
    ...reading,
    source: file.source === source ? source : `${file.source}; ${source}`,
    models: [...models, model],
  };
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isCell = (x: unknown): x is [number, number] => Array.isArray(x) && x.length === 2 && x.every(Number.isInteger);

/** The file, or why it is not one (a message naming the first bad field). */
export function parseRecordedWalks(raw: unknown): RecordedWalks | string {
  if (!isObject(raw) || raw.kind !== 'maze-walks') return 'not a maze walks file (kind must be "maze-walks")';
  if (!Array.isArray(raw.mazes) || !Array.isArray(raw.models)) return 'mazes and models must be lists';
  for (const [i, m] of raw.mazes.entries()) {
    if (
      !isObject(m) ||
      !Array.isArray(m.grid) ||
      !m.grid.every((r) => typeof r === 'string') ||
      !isCell(m.start) ||
      !isCell(m.goal)
    ) {
      return `mazes[${i}]: needs grid (rows of text), start and goal ([row, column])`;
    }
  }
  for (const [i, m] of raw.models.entries()) {
    if (!isObject(m) || typeof m.label !== 'string' || !Array.isArray(m.walks) || m.walks.length !== raw.mazes.length) {
      return `models[${i}]: needs a label and walks for each of the ${raw.mazes.length} mazes`;
    }
    for (const walks of m.walks) {
      if (
        !Array.isArray(walks) ||
        !walks.every(
          (w) => isObject(w) && typeof w.moves === 'string' && /^[UDLR]*$/.test(w.moves) && Number.isInteger(w.count),
        )
      ) {
        return `models[${i}] (${m.label}): each walk needs moves (U, D, L, R) and a count`;
      }
    }
  }
  return raw as unknown as RecordedWalks;
}

/** The cells a walk visits, start first (moves as letters; a recorded correct walk stays on the grid). */
export function walkCells(start: Cell, moves: string): Cell[] {
  const cells: Cell[] = [start];
  let [r, c] = start;
  for (const ch of moves) {
    const m = (MOVE_NAMES as readonly string[]).indexOf(ch);
    if (m < 0) break;
    r += MOVE_DELTAS[m][0];
    c += MOVE_DELTAS[m][1];
    cells.push([r, c]);
  }
  return cells;
}
