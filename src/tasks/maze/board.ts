// The maze's grid and token layout, shared by the task (task.ts) and its reports
// (breaks.ts, branching.ts): parameters and instances, token ids, the board read from
// an instance, distances to the goal, legal moves, and the answer slots (moves and cell notes).

import { MOVE_DELTAS, MOVE_NAMES, shortestPaths } from './gen';
import { completionContent } from '../tokens';
import { EOS, NUM_SPECIAL, type TaskInstance } from '../types';

/** The largest maxDist: a shortest path in a 10×10 grid visits at most its 100 cells. */
export const MAX_MAZE_DIST = 99;

export type MazeParams = {
  size: number;
  braid: number;
  minDist: number;
  maxDist: number;
  nearGoals: number;
  reward: 'binary' | 'shortest' | 'progress';
  answer: 'moves' | 'cells';
  startNote: 'off' | 'on';
  goalNote: 'off' | 'on';
  solution: 'shortest' | 'right-hand';
  baseWalk: 'random' | 'right-hand' | 'either-hand';
};

/** Task tokens in id order (ids from NUM_SPECIAL): cells, row separator, moves. */
export const MAZE_TOKENS = ['#', '.', 'S', 'G', '|', ...MOVE_NAMES] as const;
/** The largest grid side: cell notes have a token for every (row, col) below it. */
export const MAX_SIZE = 10;
/** answer = cells: the note "r,c" after a move is token FIRST_CELL + r·10 + c, whatever the size. */
export const CELL_NOTES = Array.from(
  { length: MAX_SIZE * MAX_SIZE },
  (_, i) => `${Math.floor(i / MAX_SIZE)},${i % MAX_SIZE}`,
);
export const CELL_ID: Record<string, number> = { '#': 4, '.': 5, S: 6, G: 7 };
export const ROW_SEP = NUM_SPECIAL + 4;
/** Token id of the first move (U); D, L, R follow. */
export const FIRST_MOVE = NUM_SPECIAL + 5;
/** Token id of the note for cell (0, 0) (answer = cells). */
export const FIRST_CELL = FIRST_MOVE + 4;
/** The note token of a cell (row-major index in a grid of side `size`). */
export const cellNote = (cell: number, size: number): number =>
  FIRST_CELL + Math.floor(cell / size) * MAX_SIZE + (cell % size);

/**
 * The move budget: at most n² moves (room for any simple path and for detours). The completion
 * has one slot more than the moves and their notes (stride·n² + 1), and that last slot is the
 * end token's: a walk that writes no end token and moves into it makes move n² + 1, which is wrong.
 */
export const moveBudget = (p: { size: number }): number => p.size * p.size;

/** Completion positions per move: 1 (the move), or 2 (the move, then the cell it reached). */
export const stride = (p: { answer?: string }): number => (p.answer === 'cells' ? 2 : 1);

export interface MazeInstance extends TaskInstance {
  task: 'maze';
  params: MazeParams;
  /** Rows of the grid: '#' wall, '.' open, 'S' start, 'G' goal. */
  grid: string[];
  start: [number, number];
  goal: [number, number];
  /** Shortest-path length from start to goal. */
  shortest: number;
  /** Number of distinct shortest paths. */
  shortestPaths: number;
}

/** The answer tokens of a walk: each move, then (answer = cells) the note of the cell it reached; then EOS. */
export function answerOf(p: MazeParams, board: Board, moves: readonly number[]): number[] {
  const out: number[] = [];
  let cell = board.start;
  for (const m of moves) {
    cell += MOVE_DELTAS[m][0] * board.size + MOVE_DELTAS[m][1];
    out.push(FIRST_MOVE + m);
    if (p.answer === 'cells') out.push(cellNote(cell, board.size));
  }
  out.push(EOS);
  return out;
}

/** Grid geometry read from rows; cells row-major. */
export interface Board {
  size: number;
  open: boolean[];
  start: number;
  goal: number;
}

export function rowsOf(board: Board): string[] {
  const { size, open, start, goal } = board;
  return Array.from({ length: size }, (_, r) =>
    Array.from({ length: size }, (_, c) => {
      const cell = r * size + c;
      return cell === start ? 'S' : cell === goal ? 'G' : open[cell] ? '.' : '#';
    }).join(''),
  );
}

export function boardOf(instance: MazeInstance): Board {
  const size = instance.params.size;
  const open = instance.grid.flatMap((row) => [...row].map((ch) => ch !== '#'));
  return {
    size,
    open,
    start: instance.start[0] * size + instance.start[1],
    goal: instance.goal[0] * size + instance.goal[1],
  };
}

/** Shortest distance from every cell to the goal (−1: unreachable). */
export function goalDistances(board: Board): Int32Array {
  return shortestPaths(board.open, board.size, board.goal).dist;
}

/** The tokens before the first EOS, split into the move slots and (answer = cells) the note slots. */
export interface MoveSlots {
  /** Tokens in the move slots, and their completion positions. */
  moves: number[];
  at: number[];
  /** Tokens in the note slots: notes[i] follows moves[i] (answer = cells; empty otherwise). */
  notes: number[];
  /** Completion position of the EOS (or the region's end). */
  end: number;
}

export function moveSlots(instance: MazeInstance, completion: readonly number[]): MoveSlots {
  const content = completionContent(completion, instance.completionLength);
  const k = stride(instance.params);
  const out: MoveSlots = { moves: [], at: [], notes: [], end: content.length };
  content.forEach((t, i) => {
    if (i % k === 0) {
      out.moves.push(t);
      out.at.push(i);
    } else out.notes.push(t);
  });
  return out;
}

/** Legal moves (indices into MOVE_DELTAS) from a cell: inside the grid and onto an open cell. */
export function legalMoves(board: Board, cell: number): number[] {
  const out: number[] = [];
  for (let m = 0; m < 4; m++) {
    const next = stepCell(board.size, cell, m);
    if (next >= 0 && board.open[next]) out.push(m);
  }
  return out;
}

/** The cell one move (an index into MOVE_DELTAS) away in a grid of side `size`, or −1 off the grid. */
export function stepCell(size: number, cell: number, m: number): number {
  const r = Math.floor(cell / size) + MOVE_DELTAS[m][0];
  const c = (cell % size) + MOVE_DELTAS[m][1];
  return r < 0 || r >= size || c < 0 || c >= size ? -1 : r * size + c;
}

/** Moves (U, D, L, R order) from `cell` that stay on a shortest path: onto an open cell one closer to the goal. */
export function shortestMoves(board: Board, toGoal: Int32Array, cell: number): number[] {
  return legalMoves(board, cell).filter((m) => toGoal[stepCell(board.size, cell, m)] === toGoal[cell] - 1);
}
