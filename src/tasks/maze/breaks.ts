// Where a maze walk first goes wrong (the maze analogue of the chain-break report).
//
// A walk is read move by move against the distances to the goal. The first failure is one of:
//   wall / edge  the move enters a wall or leaves the grid;
//   badtoken     a token that is not a move;
//   wrong-turn   a legal move onto no shortest path (every such cell offers two or more moves);
//   overshoot    the walk reaches the goal and keeps going;
//   stopped-short the end token before the goal, every move so far on a shortest path.
// A walk with none of these is a shortest path to the goal. A walk past the n²-move budget is
// wrong (not correct) and has always failed earlier in one of these ways. A wrong turn can still end on the
// goal by a detour (correct under the binary reward): the report counts those apart.

import {
  boardOf,
  FIRST_MOVE,
  goalDistances,
  moveBudget,
  moveSlots,
  shortestMoves,
  stepCell,
  type MazeInstance,
} from './board';
import { EOS } from '../types';

export const WALK_BREAKS = ['wall', 'edge', 'badtoken', 'wrong-turn', 'overshoot', 'stopped-short'] as const;
export type WalkBreakKind = (typeof WALK_BREAKS)[number];

export interface WalkBreak {
  /** null: a shortest path to the goal. */
  kind: WalkBreakKind | null;
  /** Completion position of the first wrong token (the end token for stopped-short); −1 when unbroken. */
  at: number;
  /**
   * Which move it was, from 0 (with cell notes a move is every other token, so this is not `at`):
   * for stopped-short the move it did not make; −1 when unbroken.
   */
  move: number;
  /** Tokens that were right at that position: the moves onto a shortest path, or EOS on the goal. */
  right: number[];
  /** Whether the walk ends on the goal without a wall or the edge (the binary reward's "correct"). */
  correct: boolean;
}

/** The first failure of one walk (total: any token array). */
export function walkBreak(instance: MazeInstance, completion: readonly number[]): WalkBreak {
  const board = boardOf(instance);
  const toGoal = goalDistances(board);
  const slots = moveSlots(instance, completion);
  const content = slots.moves;
  const closer = (cell: number): number[] => shortestMoves(board, toGoal, cell).map((m) => FIRST_MOVE + m);
  let cell = board.start;
  let first: Omit<WalkBreak, 'correct'> | null = null;
  let broken = false; // a wall, the edge or a bad token: the walk stops there
  for (let i = 0; i < content.length && !broken; i++) {
    const m = content[i] - FIRST_MOVE;
    // The right tokens at the first failure only: on the goal the end token, elsewhere a move onto a shortest path.
    const mark = (kind: WalkBreakKind): void => {
      if (!first) first = { kind, at: slots.at[i], move: i, right: cell === board.goal ? [EOS] : closer(cell) };
    };
    if (!(Number.isInteger(m) && m >= 0 && m < 4)) {
      mark(cell === board.goal ? 'overshoot' : 'badtoken');
      broken = true;
      break;
    }
    const next = stepCell(board.size, cell, m);
    if (cell === board.goal) mark('overshoot');
    if (next < 0 || !board.open[next]) {
      mark(next < 0 ? 'edge' : 'wall');
      broken = true;
      break;
    }
    if (cell !== board.goal && toGoal[next] !== toGoal[cell] - 1) mark('wrong-turn');
    cell = next;
  }
  // Past the n²-move budget a walk is wrong wherever it ends (its first failure came earlier: a
  // walk of shortest moves reaches G in fewer than n² moves, so it has overshot or turned wrong).
  const correct = !broken && cell === board.goal && content.length <= moveBudget(board);
  if (!first && !correct) first = { kind: 'stopped-short', at: slots.end, move: content.length, right: closer(cell) };
  return first
    ? { ...(first as Omit<WalkBreak, 'correct'>), correct }
    : { kind: null, at: -1, move: -1, right: [], correct };
}

/** Below this probability of a right token a break counts as collapsed (as for the chains). */
export const WALK_COLLAPSED_BELOW = 0.01;

export interface WalkBreakReport {
  size: number;
  prompts: number;
  /** Walks that end on the goal (greedy pass@1 × prompts). */
  correct: number;
  /** Shortest paths to the goal. */
  unbroken: number;
  /** Walks per first failure. */
  kinds: Record<WalkBreakKind, number>;
  /** Walks whose first failure was a wrong turn and still reached the goal (a detour). */
  detours: number;
  /** byMove[i]: walks that first failed at their move i, from 0 (stopped-short: the move not made). */
  byMove: number[];
  /** The same split by kind: where the walls, the wrong turns, … happen. */
  kindByMove: Record<WalkBreakKind, number[]>;
  /** Mean probability the policy gave the right tokens where each walk first failed, per kind. */
  pRight: Record<WalkBreakKind, number>;
  /** Failures where that probability was below WALK_COLLAPSED_BELOW. */
  collapsed: number;
}

/**
 * The report over greedy walks: `tokens` [N,T] one walk per prompt; `rightProb(n, at, right)`
 * the policy's probability of the tokens `right` at completion position `at` of walk n.
 */
export function walkBreakReport(
  instances: readonly MazeInstance[],
  tokens: Int32Array,
  T: number,
  Lp: number,
  rightProb: (n: number, at: number, right: readonly number[]) => number,
): WalkBreakReport {
  const zero = (): Record<WalkBreakKind, number> =>
    Object.fromEntries(WALK_BREAKS.map((k) => [k, 0])) as Record<WalkBreakKind, number>;
  const kinds = zero();
  const pSum = zero();
  const byMove: number[] = [];
  const kindByMove = Object.fromEntries(WALK_BREAKS.map((k) => [k, [] as number[]])) as Record<WalkBreakKind, number[]>;
  let correct = 0,
    unbroken = 0,
    detours = 0,
    collapsed = 0;
  instances.forEach((inst, n) => {
    const walk = Array.from(tokens.subarray(n * T + Lp, n * T + Lp + inst.completionLength));
    const b = walkBreak(inst, walk);
    if (b.correct) correct++;
    if (b.kind === null) {
      unbroken++;
      return;
    }
    kinds[b.kind]++;
    if (b.kind === 'wrong-turn' && b.correct) detours++;
    for (const counts of [byMove, kindByMove[b.kind]]) {
      while (counts.length <= b.move) counts.push(0);
      counts[b.move]++;
    }
    const p = b.right.length > 0 ? rightProb(n, b.at, b.right) : 0;
    pSum[b.kind] += p;
    if (p < WALK_COLLAPSED_BELOW) collapsed++;
  });
  const pRight = zero();
  for (const k of WALK_BREAKS) pRight[k] = kinds[k] > 0 ? pSum[k] / kinds[k] : 0;
  return {
    size: instances[0]?.params.size ?? 0,
    prompts: instances.length,
    correct,
    unbroken,
    kinds,
    detours,
    byMove,
    kindByMove,
    pRight,
    collapsed,
  };
}

const KIND_TEXT: Record<WalkBreakKind, string> = {
  wall: 'into a wall',
  edge: 'off the grid',
  badtoken: 'not a move',
  'wrong-turn': 'wrong turn (off every shortest path)',
  overshoot: 'overshot the goal',
  'stopped-short': 'stopped short',
};

/** "1:35  2:2": counts by move number (from 1), the empty ones left out. */
function byMoveText(counts: readonly number[]): string {
  return counts
    .map((c, i) => (c > 0 ? `${i + 1}:${c}` : ''))
    .filter(Boolean)
    .join('  ');
}

/** The report as lines of text. */
export function walkBreakLines(r: WalkBreakReport): string[] {
  const pct = (x: number): string => `${((100 * x) / Math.max(1, r.prompts)).toFixed(0)}%`;
  const lines = [`where each greedy walk first goes wrong (${r.prompts} mazes, ${r.size}×${r.size}):`];
  lines.push(
    `  shortest path to the goal: ${r.unbroken} (${pct(r.unbroken)}); on the goal at the end: ${r.correct} (${pct(r.correct)})`,
  );
  for (const k of WALK_BREAKS) {
    if (r.kinds[k] === 0) continue;
    const extra = k === 'wrong-turn' && r.detours > 0 ? `, ${r.detours} still reached the goal` : '';
    lines.push(
      `  ${KIND_TEXT[k].padEnd(38)} ${String(r.kinds[k]).padStart(5)} (${pct(r.kinds[k])}); p(right there) ${r.pRight[k].toFixed(3)}${extra}; at move ${byMoveText(r.kindByMove[k])}`,
    );
  }
  if (r.byMove.length > 0) lines.push(`  first failure at move: ${byMoveText(r.byMove)}`);
  const broken = r.prompts - r.unbroken;
  if (broken > 0) lines.push(`  collapsed (p(right) < ${WALK_COLLAPSED_BELOW}): ${r.collapsed} of ${broken}`);
  return lines;
}
