// Greedy walks told against the wall follower (wall.ts): does a walk keep one hand on the wall to
// its end, and where does it stop (before G, on G, past it)? A policy taught right-hand walks
// (task.baseWalk, task.solution = right-hand) is read here; so is how often each hand's own walk
// reaches G within the move budget, the ceiling of a policy with no plan (docs/results.md,
// "5×5 diagnosis"). Part of the maze's `rlvr eval --breaks` report.

import { boardOf, FIRST_MOVE, moveBudget, moveSlots, stepCell, type Board, type MazeInstance } from './board';
import { wallWalk, type Hand } from './wall';

export const HANDS: readonly Hand[] = ['right', 'left'];

/** Where a walk that keeps a hand ends, against that hand's own walk to G. */
export type HandStop = 'before G' | 'on G' | 'past G' | 'no G within the budget';

/** One walk: the hand it keeps to its end (the right hand first where both agree), or the move where it leaves both. */
export type HandVerdict = { hand: Hand; stop: HandStop } | { hand: null; leftAt: number };

/** The first move where `moves` and `walk` differ (moves.length: none, the walk is a prefix). */
function divergence(moves: readonly number[], walk: readonly number[]): number {
  const i = moves.findIndex((m, k) => walk[k] !== m);
  return i < 0 ? moves.length : i;
}

/** The cell a walk from S ends on (the moves are legal: a wall walk's). */
function endCell(board: Board, walk: readonly number[]): number {
  return walk.reduce((cell, m) => stepCell(board.size, cell, m), board.start);
}

/** Whether the hand's own walk, stopping on G, stands on G within the move budget. */
export function handReachesGoal(board: Board, hand: Hand): boolean {
  return board.goal !== board.start && endCell(board, wallWalk(board, moveBudget(board), hand, true)) === board.goal;
}

/** One walk's verdict; `moves` are move indices (0–3; anything else is not a move and matches no hand). */
export function handVerdict(board: Board, moves: readonly number[]): HandVerdict {
  const budget = moveBudget(board);
  const at = HANDS.map((hand) => divergence(moves, wallWalk(board, budget, hand, false)));
  const kept = HANDS.findIndex((_, i) => at[i] === moves.length);
  if (kept < 0) return { hand: null, leftAt: Math.max(...at) };
  const hand = HANDS[kept];
  if (!handReachesGoal(board, hand)) return { hand, stop: 'no G within the budget' };
  const toGoal = wallWalk(board, budget, hand, true).length;
  const stop = moves.length < toGoal ? 'before G' : moves.length === toGoal ? 'on G' : 'past G';
  return { hand, stop };
}

export interface HandReport {
  prompts: number;
  /** Walks per "right hand, on G", "left hand, past G", …, and "left both hands". */
  kinds: Record<string, number>;
  /** Mean number of moves the walks that left both hands kept to one first (0 when none). */
  leftAfter: number;
  /** Mazes where each hand's own walk reaches G within the budget, and where either does. */
  reaches: { right: number; left: number; either: number };
}

export const LEFT_BOTH = 'left both hands';

/** The verdicts over one greedy completion per maze (completion tokens). */
export function handReport(
  instances: readonly MazeInstance[],
  completions: readonly (readonly number[])[],
): HandReport {
  const kinds: Record<string, number> = {};
  const reaches = { right: 0, left: 0, either: 0 };
  let left = 0;
  let leftSum = 0;
  instances.forEach((inst, n) => {
    const board = boardOf(inst);
    const moves = moveSlots(inst, completions[n]).moves.map((t) => t - FIRST_MOVE);
    const v = handVerdict(board, moves);
    const key = v.hand === null ? LEFT_BOTH : `${v.hand} hand, ${v.stop}`;
    kinds[key] = (kinds[key] ?? 0) + 1;
    if (v.hand === null) {
      left++;
      leftSum += v.leftAt;
    }
    const [r, l] = HANDS.map((hand) => handReachesGoal(board, hand));
    reaches.right += Number(r);
    reaches.left += Number(l);
    reaches.either += Number(r || l);
  });
  return { prompts: instances.length, kinds, leftAfter: left > 0 ? leftSum / left : 0, reaches };
}

/** The report as lines of text. */
export function handLines(r: HandReport): string[] {
  const lines = [`each greedy walk against the wall follower (${r.prompts} mazes):`];
  for (const [k, v] of Object.entries(r.kinds).sort((a, b) => b[1] - a[1])) {
    const after = k === LEFT_BOTH ? ` (after ${r.leftAfter.toFixed(1)} moves on average)` : '';
    lines.push(`  ${k}: ${v}${after}`);
  }
  const { right, left, either } = r.reaches;
  lines.push(
    `  the wall walk itself reaches G within the budget: right hand ${right}, left hand ${left}, either ${either}`,
  );
  return lines;
}
