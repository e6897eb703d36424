// How the verifier reads a walk: the moves before the first EOS followed from S, stopping at the
// first move into a wall or off the grid, at a token that is not a move, or past the move budget.

import { MOVE_NAMES, shortestPaths } from './gen';
import { boardOf, FIRST_MOVE, moveBudget, moveSlots, stepCell, type Board, type MazeInstance } from './board';

type Break = 'wall' | 'offgrid' | 'badtoken' | 'overbudget';

export interface Walk {
  moves: number[];
  end: number;
  broken: Break | null;
}

/** Follows the moves before the first EOS; stops at the first illegal move or non-move token, or past the move budget. */
export function walk(board: Board, instance: MazeInstance, completion: readonly number[]): Walk {
  const moves: number[] = [];
  const budget = moveBudget(board);
  let cell = board.start;
  for (const t of moveSlots(instance, completion).moves) {
    if (moves.length === budget) return { moves, end: cell, broken: 'overbudget' };
    const m = t - FIRST_MOVE;
    if (!(Number.isInteger(m) && m >= 0 && m < 4)) return { moves, end: cell, broken: 'badtoken' };
    const next = stepCell(board.size, cell, m);
    if (next < 0) return { moves, end: cell, broken: 'offgrid' };
    if (!board.open[next]) return { moves, end: cell, broken: 'wall' };
    cell = next;
    moves.push(m);
  }
  return { moves, end: cell, broken: null };
}

export interface Judged {
  walk: Walk;
  correct: boolean;
  isShortest: boolean;
  remaining: number;
}

export function judge(instance: MazeInstance, completion: readonly number[]): Judged {
  const board = boardOf(instance);
  const w = walk(board, instance, completion);
  const correct = w.broken === null && w.end === board.goal;
  const remaining = shortestPaths(board.open, board.size, board.goal).dist[w.end];
  return { walk: w, correct, isShortest: correct && w.moves.length === instance.shortest, remaining };
}

/** The path as a move string, e.g. "RRDL" (up to where it breaks). */
export const pathText = (w: Walk): string => w.moves.map((m) => MOVE_NAMES[m]).join('');
