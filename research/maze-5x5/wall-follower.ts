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
//   npx tsx research/maze-5x5/wall-follower.ts judge <checkpoint> [n]
//     the checkpoint's greedy walks on n whole held-out mazes (as rlvr eval draws them, nearGoals 0),
//     against the two wall walks: does a walk keep to one hand, and where does it stop?
//
// The wall walk itself is the task's (src/tasks/maze/wall.ts); a base model on wall walks that
// never look at the goal is `rlvr train … --set task.baseWalk=right-hand --set sftData=base`
// (either-hand: a hand drawn per walk).

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
  console.log(
    `${size}×${size}, distance ≥ ${minDist}, ${n} mazes: the right-hand walk reaches G within the ${budget}-move budget in ${within(right)} of them (mean ${mean.toFixed(1)} moves, longest ${Math.max(...right)}); the left-hand walk in ${within(left)}; the shorter of the two in ${within(better)}`,
  );
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

/** Greedy walks of a checkpoint, each told as: which hand it keeps (or where it leaves both), and where it stops. */
async function judge(path: string, n: number): Promise<void> {
  const { readCheckpointArg } = await import('../../src/cli/checkpoints');
  const { openEngines } = await import('../../src/cli/engines');
  const { validateConfig } = await import('../../src/config/config');
  const { Trainer } = await import('../../src/rl/trainer');
  const { nodeSandbox } = await import('../../src/rl/custom/sandbox-node');
  const { buildTemplate, rolloutShape } = await import('../../src/rl/rollout');
  const { moveSlots, FIRST_MOVE } = await import('../../src/tasks/maze/board');
  const ck = readCheckpointArg(path, 'checkpoint', 'a maze checkpoint');
  const config = validateConfig({
    ...ck.config,
    evalPrompts: n,
    seed: 1000003,
    curriculum: 'off',
    refSync: 'none',
    'task.nearGoals': 0,
  });
  const engines = await openEngines('cpu');
  const trainer = await Trainer.create(config, engines.make, { initial: ck, sandbox: nodeSandbox });
  const mazes = trainer.heldOutPrompts(trainer.level, n) as MazeInstance[];
  const shape = rolloutShape(mazes, 1);
  const greedy = await trainer.engine.sample(buildTemplate(mazes, shape), shape.N, shape.T, {
    seed: config.seed,
    step: 0,
    invTemp: 1,
    topK: 1,
  });
  const tally = new Map<string, number>();
  const add = (k: string) => tally.set(k, (tally.get(k) ?? 0) + 1);
  let leftAt = 0;
  mazes.forEach((inst, b) => {
    const board = boardOf(inst);
    const row = Array.from(greedy.tokens.subarray(b * shape.T + shape.Lp, (b + 1) * shape.T));
    const moves = moveSlots(inst, row).moves.map((t) => t - FIRST_MOVE);
    const budget = board.size * board.size;
    const hands = (['right', 'left'] as const).map((hand) => ({ hand, walk: wallWalk(board, budget, hand, false) }));
    const same = (walk: number[]) => moves.every((m, i) => walk[i] === m);
    const kept = hands.find((h) => same(h.walk));
    if (!kept) {
      const at = Math.max(...hands.map((h) => h.walk.findIndex((m, i) => moves[i] !== m)));
      leftAt += at;
      add(at === 0 ? 'left both hands at move 1' : 'left both hands later');
      return;
    }
    const toGoal = wallWalk(board, budget, kept.hand, true).length;
    const reaches = toGoal <= budget && board.goal !== board.start;
    const where = !reaches
      ? 'its hand does not reach G within the budget'
      : moves.length < toGoal
        ? 'stopped before G'
        : moves.length === toGoal
          ? 'stopped on G'
          : 'walked past G';
    add(`${kept.hand} hand, ${where}`);
  });
  console.log(`${path}: ${n} whole held-out mazes, greedy`);
  for (const [k, v] of [...tally].sort((a, b) => b[1] - a[1])) console.log(`  ${k}: ${v}`);
  const left = (tally.get('left both hands at move 1') ?? 0) + (tally.get('left both hands later') ?? 0);
  if (left) console.log(`  (walks that left both hands did so after ${(leftAt / left).toFixed(1)} moves on average)`);
  engines.close?.();
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === 'fit') {
  fit(Number(rest[0] ?? 5), Number(rest[1] ?? 4));
} else if (mode === 'train') {
  // Right-hand walks to G, cut at the move budget.
  await trainOn((_rng, board) => wallWalk(board, board.size * board.size, 'right', true), rest);
} else if (mode === 'judge') {
  await judge(rest[0], Number(rest[1] ?? 256));
} else {
  console.error('usage: wall-follower.ts fit [size] [minDist] | train <rlvr train flags…> | judge <checkpoint> [n]');
  process.exit(2);
}
