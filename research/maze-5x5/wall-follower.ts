// A diagnosis, not part of the product: is there a maze policy that the maze presets' small model
// can hold, when the shortest path's first move (which exit of S leads to G) is beyond it?
// The wall follower needs no plan: keep a hand on the wall, at each cell take the first open
// direction from that hand round. In a perfect maze it reaches G without entering a wall, and the
// binary maze reward pays any walk that ends on G, detours included.
//
//   npx tsx research/maze-5x5/wall-follower.ts fit [size] [minDist]
//     how often the right-hand walk reaches G within the task's move budget (size²)
//   npx tsx research/maze-5x5/wall-follower.ts train <rlvr train flags…>
//     `rlvr train` with the maze task's base completions replaced by right-hand walks, so that
//     `--set sftData=base` trains the warm start on them (judge it with `rlvr eval … --breaks`)

import { makeRng } from '../../src/core/random';
import { TASKS } from '../../src/tasks/registry';
import { generateMaze } from '../../src/tasks/maze/gen';
import { answerOf, boardOf, legalMoves, stepCell, type Board, type MazeInstance } from '../../src/tasks/maze/board';

// Headings clockwise (up, right, down, left) as the task's moves (U 0, D 1, L 2, R 3).
const CLOCKWISE = [0, 3, 1, 2];

/** The right-hand walk's moves from S until it stands on G (at most `limit` moves). */
export function rightHandWalk(board: Board, limit: number): number[] {
  const moves: number[] = [];
  let cell = board.start;
  let heading = 0; // an index into CLOCKWISE
  while (cell !== board.goal && moves.length < limit) {
    const legal = legalMoves(board, cell);
    if (legal.length === 0) break;
    // Right of the heading first, then ahead, then left, then back.
    for (const turn of [1, 0, 3, 2]) {
      const h = (heading + turn) % 4;
      if (!legal.includes(CLOCKWISE[h])) continue;
      moves.push(CLOCKWISE[h]);
      cell = stepCell(board.size, cell, CLOCKWISE[h]);
      heading = h;
      break;
    }
  }
  return moves;
}

function fit(size: number, minDist: number, n = 4000): void {
  const rng = makeRng(7, 1, 0);
  const budget = size * size;
  const lengths: number[] = [];
  for (let i = 0; i < n; i++) {
    const m = generateMaze(rng, size, 0, minDist);
    const board: Board = { size, open: m.open, start: m.start, goal: m.goal };
    const walk = rightHandWalk(board, 10 * budget);
    lengths.push(walk.length);
  }
  const within = lengths.filter((l) => l <= budget).length / n;
  const mean = lengths.reduce((a, b) => a + b, 0) / n;
  console.log(`${size}×${size}, distance ≥ ${minDist}, ${n} mazes: the right-hand walk reaches G within the ${budget}-move budget in ${within.toFixed(3)} of them (mean ${mean.toFixed(1)} moves, longest ${Math.max(...lengths)})`);
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === 'fit') {
  fit(Number(rest[0] ?? 5), Number(rest[1] ?? 4));
} else if (mode === 'train') {
  // The warm start's "base completions" become right-hand walks, cut at the move budget.
  TASKS.maze.baseCompletion = (_rng, instance) => {
    const board = boardOf(instance as MazeInstance);
    return answerOf((instance as MazeInstance).params, board, rightHandWalk(board, board.size * board.size));
  };
  process.argv = [process.argv[0], 'rlvr', ...rest];
  await import('../../src/cli/main');
} else {
  console.error('usage: wall-follower.ts fit [size] [minDist] | train <rlvr train flags…>');
  process.exit(2);
}
