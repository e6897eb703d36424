// The wall follower: keep one hand on the wall and, at each cell, take the first open way from
// that hand round (for the right hand: right of the heading, ahead, left, back). It needs no plan,
// only the cell it stands on, the way it came and the four neighbours, and in a maze without
// loops it reaches every cell, the goal included, without entering a wall. A base model trained
// on these walks (maze.baseWalk = right-hand) holds a walk that the presets' small model can follow on
// 5×5 mazes, where a shortest path's first move (which exit of S leads to G) is beyond it
// (docs/results.md, "5×5 diagnosis").

import { legalMoves, stepCell, type Board } from './board';

export type Hand = 'right' | 'left';

/** Headings clockwise (up, right, down, left) as move indices (U 0, D 1, L 2, R 3). */
const CLOCKWISE = [0, 3, 1, 2] as const;
/** Turns tried in order, in quarter turns clockwise from the heading. */
const TURNS: Record<Hand, readonly number[]> = { right: [1, 0, 3, 2], left: [3, 0, 1, 2] };

/**
 * The wall follower's moves from S: `limit` moves, or fewer when `stopOnGoal` and it stands on G.
 * The walk starts heading up (an arbitrary but fixed choice).
 */
export function wallWalk(board: Board, limit: number, hand: Hand, stopOnGoal: boolean): number[] {
  const moves: number[] = [];
  let cell = board.start;
  let heading = 0; // an index into CLOCKWISE
  while (!(stopOnGoal && cell === board.goal) && moves.length < limit) {
    const legal = legalMoves(board, cell);
    if (legal.length === 0) break;
    const turn = TURNS[hand].find((t) => legal.includes(CLOCKWISE[(heading + t) % 4]))!;
    heading = (heading + turn) % 4;
    moves.push(CLOCKWISE[heading]);
    cell = stepCell(board.size, cell, CLOCKWISE[heading]);
  }
  return moves;
}
