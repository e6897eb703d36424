// A diagnosis, not part of the product: is there a maze policy that the maze presets' small model
// can hold, when the shortest path's first move (which exit of S leads to G) is beyond it?
// The wall follower needs no plan: keep a hand on the wall, at each cell take the first open
// direction from that hand round. In a perfect maze it reaches G without entering a wall, and the
// binary maze reward pays any walk that ends on G, detours included.
//
//   npx tsx research/maze-5x5/wall-follower.ts fit [size] [minDist]
//     how often the right-hand walk reaches G within the task's move budget (size²)
//   npx tsx research/maze-5x5/wall-follower.ts train <rlvr train flags…>
//     `rlvr train` with the maze task's base completions replaced by right-hand walks to G, so
//     that `--set sftData=base` trains the warm start on them (judge it with `rlvr eval … --breaks`)
//
// The wall walk itself is the task's (src/tasks/maze/wall.ts); a base model on wall walks that
// never look at the goal is `rlvr train … --set task.baseWalk=wall --set sftData=base`.

import { makeRng, type Rng } from '../../src/core/random';
import { TASKS } from '../../src/tasks/registry';
import { generateMaze } from '../../src/tasks/maze/gen';
import { answerOf, boardOf, type Board, type MazeInstance } from '../../src/tasks/maze/board';
import { wallWalk } from '../../src/tasks/maze/wall';

function fit(size: number, minDist: number, n = 4000): void {
  const rng = makeRng(7, 1, 0);
  const budget = size * size;
  const right: number[] = [];
  const left: number[] = [];
  for (let i = 0; i < n; i++) {
    const m = generateMaze(rng, size, 0, minDist);
    const board: Board = { size, ...m };
    // Far past the budget: a wall follower in a tree maze always arrives.
    right.push(wallWalk(board, 10 * budget, 'right', true).length);
    left.push(wallWalk(board, 10 * budget, 'left', true).length);
  }
  const within = (lengths: number[]) => (lengths.filter((l) => l <= budget).length / n).toFixed(3);
  const mean = right.reduce((a, b) => a + b, 0) / n;
  const better = right.map((r, i) => Math.min(r, left[i]));
  console.log(`${size}×${size}, distance ≥ ${minDist}, ${n} mazes: the right-hand walk reaches G within the ${budget}-move budget in ${within(right)} of them (mean ${mean.toFixed(1)} moves, longest ${Math.max(...right)}); the left-hand walk in ${within(left)}; the shorter of the two in ${within(better)}`);
}

/** `rlvr train` with these walks as the maze task's base completions (what sftData = base trains on). */
async function trainOn(walk: (rng: Rng, board: Board) => number[], flags: string[]): Promise<void> {
  TASKS.maze.baseCompletion = (rng, instance) => {
    const board = boardOf(instance as MazeInstance);
    return answerOf((instance as MazeInstance).params, board, walk(rng, board));
  };
  process.argv = [process.argv[0], 'rlvr', ...flags];
  await import('../../src/cli/main');
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === 'fit') {
  fit(Number(rest[0] ?? 5), Number(rest[1] ?? 4));
} else if (mode === 'train') {
  // Right-hand walks to G, cut at the move budget.
  await trainOn((_rng, board) => wallWalk(board, board.size * board.size), rest);
} else {
  console.error('usage: wall-follower.ts fit [size] [minDist] | train <rlvr train flags…>');
  process.exit(2);
}
