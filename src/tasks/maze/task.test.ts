import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeRng, STREAM } from '../../core/random';
import { mazeTask as maze, type MazeInstance } from './task';
import { carvePerfectMaze, MOVE_DELTAS, MOVE_NAMES } from './gen';
import { parseParams } from '../params';
import { EOS } from '../types';
import { testMazeParams } from './testParams';
import { walkBreak } from './breaks';
import { walkEnd } from './walks';

const MOVE_ID = { U: 9, D: 10, L: 11, R: 12 } as const;
type Move = keyof typeof MOVE_ID;

function draw(raw: Record<string, unknown>, seed = 1): MazeInstance {
  return maze.sample(makeRng(seed, STREAM.tasks), parseParams(maze, raw));
}

const tokens = (path: string): number[] => [...[...path].map((m): number => MOVE_ID[m as Move]), EOS];
const pathOf = (inst: MazeInstance): string => inst.answerText.split(' ').slice(0, -1).join('');

const isOpen = (inst: MazeInstance, r: number, c: number): boolean =>
  r >= 0 && r < inst.grid.length && c >= 0 && c < inst.grid.length && inst.grid[r][c] !== '#';

/** Independent BFS over the grid strings: distance from start to every cell. */
function distancesFrom(inst: MazeInstance, [r0, c0]: [number, number]): Map<string, number> {
  const dist = new Map([[`${r0},${c0}`, 0]]);
  const queue: [number, number][] = [[r0, c0]];
  while (queue.length) {
    const [r, c] = queue.shift() as [number, number];
    for (const [dr, dc] of MOVE_DELTAS) {
      const key = `${r + dr},${c + dc}`;
      if (isOpen(inst, r + dr, c + dc) && !dist.has(key)) {
        dist.set(key, (dist.get(`${r},${c}`) as number) + 1);
        queue.push([r + dr, c + dc]);
      }
    }
  }
  return dist;
}

/** Brute force: every shortest path from start to goal, by depth-limited search. */
function allShortestPaths(inst: MazeInstance): string[] {
  const out: string[] = [];
  const rec = (r: number, c: number, path: string): void => {
    if (path.length === inst.shortest) {
      if (r === inst.goal[0] && c === inst.goal[1]) out.push(path);
      return;
    }
    MOVE_DELTAS.forEach(([dr, dc], m) => {
      if (isOpen(inst, r + dr, c + dc)) rec(r + dr, c + dc, path + MOVE_NAMES[m]);
    });
  };
  rec(inst.start[0], inst.start[1], '');
  return out;
}

const mazeParams = fc
  .record({ size: fc.integer({ min: 3, max: 8 }), braid: fc.integer({ min: 0, max: 6 }) })
  .chain((p) => fc.integer({ min: 1, max: 2 * (p.size - 1) }).map((minDist) => ({ ...p, minDist })));

describe('maze generation', () => {
  it('keeps start and goal at least minDist apart, with a shortest answer path', () => {
    fc.assert(
      fc.property(mazeParams, fc.nat(), (raw, s) => {
        const inst = draw(raw, s);
        const grid = inst.grid.join('');
        expect(inst.grid).toHaveLength(raw.size);
        expect(grid.split('S')).toHaveLength(2);
        expect(grid.split('G')).toHaveLength(2);
        expect(inst.grid[inst.start[0]][inst.start[1]]).toBe('S');
        expect(inst.grid[inst.goal[0]][inst.goal[1]]).toBe('G');
        const dist = distancesFrom(inst, inst.start);
        expect(dist.get(inst.goal.join(','))).toBe(inst.shortest);
        expect(inst.shortest).toBeGreaterThanOrEqual(raw.minDist);
        expect(pathOf(inst)).toHaveLength(inst.shortest);
        expect(maze.verify(inst, inst.answerTokens).details.steps).toBe(inst.shortest);
      }),
      { numRuns: 80 },
    );
  });

  it('counts shortest paths like brute force', () => {
    fc.assert(
      fc.property(
        mazeParams.filter((p) => p.size <= 5),
        fc.nat(),
        (raw, s) => {
          const inst = draw(raw, s);
          const paths = allShortestPaths(inst);
          expect(paths.length).toBe(inst.shortestPaths);
          for (const p of paths) expect(maze.verify(inst, tokens(p)).correct).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('perfect mazes are trees of open cells: exactly one path between any two', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 10 }), fc.nat(), (size, s) => {
        const open = carvePerfectMaze(makeRng(s, 9), size);
        const cells = open.flatMap((o, i) => (o ? [i] : []));
        let edges = 0;
        for (const i of cells) {
          if (i % size < size - 1 && open[i + 1]) edges++;
          if (i + size < size * size && open[i + size]) edges++;
        }
        expect(edges).toBe(cells.length - 1); // with connectivity (below) this makes a tree
        const seen = new Set([cells[0]]);
        const stack = [cells[0]];
        while (stack.length) {
          const i = stack.pop() as number;
          for (const j of [i - size, i + size, i % size ? i - 1 : -1, i % size < size - 1 ? i + 1 : -1]) {
            if (j >= 0 && j < size * size && open[j] && !seen.has(j)) {
              seen.add(j);
              stack.push(j);
            }
          }
        }
        expect(seen.size).toBe(cells.length);
      }),
      { numRuns: 60 },
    );
    for (let s = 0; s < 20; s++) expect(draw({ size: 6, minDist: 6 }, s).shortestPaths).toBe(1);
  });

  it('braided mazes have several shortest paths from start to goal in every instance (stated rate: 100%)', () => {
    let total = 0;
    let several = 0;
    for (let size = 3; size <= 10; size++) {
      for (const braid of [1, 3, 16]) {
        for (const minDist of [1, size - 1, 2 * (size - 1)]) {
          for (let s = 0; s < 3; s++) {
            total++;
            if (draw({ size, braid, minDist }, s).shortestPaths >= 2) several++;
          }
        }
      }
    }
    expect(several / total).toBe(1);
  });
});

describe('maze rewards', () => {
  const base = { size: 6, braid: 0, minDist: 5 };

  it('binary: a changed or dropped move never reaches the goal', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.integer({ min: 1, max: 3 }), (s, at, shift) => {
        const inst = draw({ ...base, reward: 'binary' }, s);
        const path = pathOf(inst);
        const i = at % path.length;
        const changed =
          path.slice(0, i) + MOVE_NAMES[(MOVE_NAMES.indexOf(path[i] as Move) + shift) % 4] + path.slice(i + 1);
        expect(maze.verify(inst, tokens(changed))).toMatchObject({ reward: 0, correct: false });
        expect(maze.verify(inst, tokens(path.slice(0, i))).reward).toBe(0);
        expect(maze.verify(inst, tokens(path + 'U')).correct).toBe(false);
      }),
      { numRuns: 60 },
    );
  });

  it('shortest: 1 for a shortest path, 0.5 for a longer valid one', () => {
    const inst = draw({ ...base, reward: 'shortest' }, 4);
    const path = pathOf(inst);
    // A detour: step back along the path and forward again.
    const back = { U: 'D', D: 'U', L: 'R', R: 'L' }[path[0] as Move];
    const detour = path[0] + back + path;
    expect(maze.verify(inst, inst.answerTokens).reward).toBe(1);
    expect(maze.verify(inst, tokens(detour))).toMatchObject({ reward: 0.5, correct: true });
    expect(maze.verify(inst, tokens(path.slice(1))).reward).toBe(0);
  });

  it('progress: 1 − remaining/initial along the walk; breaking costs half a step', () => {
    const inst = draw({ ...base, reward: 'progress' }, 5);
    const path = pathOf(inst);
    const d0 = inst.shortest;
    for (let t = 0; t <= d0; t++) expect(maze.verify(inst, tokens(path.slice(0, t))).reward).toBeCloseTo(t / d0, 12);
    // Walk into the outer wall from the goal: the walk breaks on the goal, so it gets less than 1.
    const [gr, gc] = inst.goal;
    const offMove = MOVE_NAMES.find((_, m) => !isOpen(inst, gr + MOVE_DELTAS[m][0], gc + MOVE_DELTAS[m][1]));
    if (offMove) {
      const r = maze.verify(inst, tokens(path + offMove));
      expect(r.correct).toBe(false);
      expect(r.reward).toBeCloseTo(1 - 0.5 / d0, 12);
    }
    expect(maze.verify(inst, [EOS]).reward).toBe(0);
  });

  it('reports the kind of mistake', () => {
    const inst = draw(base, 6);
    const [sr, sc] = inst.start;
    const blocked = MOVE_NAMES.find((_, m) => {
      const [r, c] = [sr + MOVE_DELTAS[m][0], sc + MOVE_DELTAS[m][1]];
      return r >= 0 && r < 6 && c >= 0 && c < 6 && inst.grid[r][c] === '#';
    });
    if (blocked) expect(maze.errorSignature(inst, tokens(blocked))).toBe('wall');
    expect(maze.errorSignature(inst, [1, 2])).toBe('badtoken');
    expect(maze.errorSignature(inst, [])).toBe(`stopped@${sr},${sc}`);
    expect(maze.signature(inst, inst.answerTokens)).toBe(pathOf(inst));
  });
});

describe('maze metrics', () => {
  it('count distinct correct paths and the shortest fraction', () => {
    let inst = draw({ size: 5, braid: 3, minDist: 4 }, 1);
    const paths = allShortestPaths(inst);
    expect(paths.length).toBeGreaterThanOrEqual(2);
    const path = pathOf(inst);
    const back = { U: 'D', D: 'U', L: 'R', R: 'L' }[path[0] as Move];
    const detour = path[0] + back + path;
    const m = maze.groupMetrics?.(inst, [tokens(paths[0]), tokens(paths[1]), tokens(paths[1]), tokens(detour), [EOS]]);
    expect(m).toEqual({
      distinct_correct_paths: 3,
      shortest_fraction: 3 / 4,
      shortest_paths_found: 2 / inst.shortestPaths,
      wall_or_edge: 0,
    });
    inst = draw({ size: 5 }, 2);
    expect(maze.groupMetrics?.(inst, [[EOS], []])).toEqual({
      distinct_correct_paths: 0,
      shortest_paths_found: 0,
      wall_or_edge: 0,
    });
  });

  it('count the walks into a wall or off the grid', () => {
    const inst = maze.fromJSON({ task: 'maze', params: { size: 3 }, grid: ['S..', '.#.', '..G'] });
    const m = maze.groupMetrics?.(inst, [tokens('U'), tokens('DR'), tokens('RRDD'), tokens('RRD')]);
    expect(m).toEqual({
      distinct_correct_paths: 1,
      shortest_fraction: 1,
      shortest_paths_found: 1 / 2,
      wall_or_edge: 2 / 4,
    });
  });
});

describe('maze fromJSON', () => {
  const params = testMazeParams();
  it('rebuilds start, goal and distance from the grid', () => {
    const inst = maze.fromJSON({ task: 'maze', params, grid: ['S.#', '#..', '##G'] });
    expect(inst).toMatchObject({ start: [0, 0], goal: [2, 2], shortest: 4, shortestPaths: 1 });
    expect(maze.verify(inst, tokens('RDRD')).correct).toBe(true);
    expect(maze.verify(inst, tokens('DRRD')).details.broken).toBe('wall');
    expect(maze.verify(inst, tokens('LRDRD')).details.broken).toBe('offgrid');
  });
  it('names the field that is wrong', () => {
    expect(() => maze.fromJSON({ task: 'maze', params, grid: ['S.#', '#x.', '##G'] })).toThrow(/instance\.grid\[1\]/);
    expect(() => maze.fromJSON({ task: 'maze', params, grid: ['S.#', '#..'] })).toThrow(
      /instance\.grid must be an array of 3/,
    );
    expect(() => maze.fromJSON({ task: 'maze', params, grid: ['S.#', '###', '##G'] })).toThrow(/cannot be reached/);
    expect(() => maze.fromJSON({ task: 'maze', params, grid: ['SS#', '#..', '##G'] })).toThrow(/exactly one "S"/);
    expect(() => maze.fromJSON({ task: 'maze', params: { size: 11 }, grid: [] })).toThrow(/maze\.size/);
  });
});

describe('maxDist: the easy end of a distance curriculum', () => {
  it('keeps start and goal within [minDist, maxDist], and within [1, maxDist] below minDist, where every distance occurs', () => {
    const cases: [number, number, number, number][] = [
      // size, minDist, maxDist, expected lower bound
      [4, 1, 1, 1],
      [4, 3, 1, 1],
      [4, 3, 2, 1],
      [4, 3, 5, 3],
      [5, 4, 6, 4],
    ];
    for (const [size, minDist, maxDist, lo] of cases) {
      const seen = new Set<number>();
      for (let seed = 1; seed <= 40; seed++) {
        const inst = draw({ size, minDist, maxDist }, seed);
        expect(inst.shortest, `size ${size} minDist ${minDist} maxDist ${maxDist} seed ${seed}`).toBeGreaterThanOrEqual(
          lo,
        );
        expect(inst.shortest).toBeLessThanOrEqual(maxDist);
        seen.add(inst.shortest);
      }
      // Level 2 of a curriculum mixes one-move and two-move mazes: a policy cannot pass it by always stopping after a count.
      if (minDist === 3 && maxDist === 2) expect([...seen].sort()).toEqual([1, 2]);
    }
  });

  it('nearGoals keeps nearer goals in a level of one distance, in about its share, and leaves the mazes alone at 0', () => {
    // Level 3 with minDist 3 is distance 3 only; with nearGoals 50 about half the mazes are 1 or 2 moves.
    const dists = (nearGoals: number): number[] =>
      Array.from({ length: 200 }, (_, i) => draw({ size: 4, minDist: 3, maxDist: 3, nearGoals }, i + 1).shortest);
    expect(new Set(dists(0))).toEqual(new Set([3]));
    const mixed = dists(50);
    expect(Math.max(...mixed)).toBe(3);
    const nearer = mixed.filter((d) => d < 3).length;
    // Each near maze is uniform over the pairs at distance 1–3, so about a third of them land on 3: 200 · 0.5 · ~2/3 ≈ 67.
    expect(nearer).toBeGreaterThan(40);
    expect(nearer).toBeLessThan(100);
    expect(new Set(mixed.filter((d) => d < 3))).toEqual(new Set([1, 2]));
    // At 0 no random draw is spent: the maze below is the one this seed drew before the knob existed,
    // so the runs recorded then (reference curves, checkpoints) still meet the same mazes.
    expect(draw({ size: 5, minDist: 4, maxDist: 6, nearGoals: 0 }, 9).grid).toEqual([
      '..G..',
      '.#.##',
      '.#...',
      '.S##.',
      '#...#',
    ]);
    expect(() => parseParams(maze, { size: 4, nearGoals: 101 })).toThrow(/maze\.nearGoals.*\[0, 100\]/);
  });

  it("startNote puts the start cell's note at the end of the prompt, the same maze and answer otherwise", () => {
    const off = draw({ size: 4, answer: 'cells' }, 5);
    const on = draw({ size: 4, answer: 'cells', startNote: 'on' }, 5);
    expect(on.grid).toEqual(off.grid);
    expect(on.answerTokens).toEqual(off.answerTokens);
    expect(on.promptTokens.slice(0, -1)).toEqual(off.promptTokens);
    // The note of S is the token a move onto S would be followed by: "r,c".
    expect(maze.vocab(on.params)[on.promptTokens[on.promptTokens.length - 1]]).toBe(`${on.start[0]},${on.start[1]}`);
    expect(on.promptTokens).toHaveLength(maze.shape(on.params).promptLength);
    expect(off.promptTokens).toHaveLength(maze.shape(off.params).promptLength);
    expect(maze.verify(on, on.answerTokens).correct).toBe(true);
    expect(() => parseParams(maze, { size: 4, startNote: 'on' })).toThrow(
      /maze\.startNote "on" needs maze\.answer "cells"/,
    );
    expect(() => parseParams(maze, { size: 4, answer: 'cells', startNote: 'yes' })).toThrow(/startNote/);
  });

  it("goalNote puts the goal cell's note last in the prompt (after the start note), the same maze and answer otherwise", () => {
    const start = draw({ size: 4, answer: 'cells', startNote: 'on' }, 5);
    const both = draw({ size: 4, answer: 'cells', startNote: 'on', goalNote: 'on' }, 5);
    const goal = draw({ size: 4, answer: 'cells', goalNote: 'on' }, 5);
    expect(both.grid).toEqual(start.grid);
    expect(both.answerTokens).toEqual(start.answerTokens);
    expect(both.promptTokens.slice(0, -1)).toEqual(start.promptTokens);
    const v = maze.vocab(both.params);
    const last = (i: typeof both, k: number) => v[i.promptTokens[i.promptTokens.length - k]];
    expect([last(both, 2), last(both, 1)]).toEqual([
      `${both.start[0]},${both.start[1]}`,
      `${both.goal[0]},${both.goal[1]}`,
    ]);
    expect(last(goal, 1)).toBe(`${goal.goal[0]},${goal.goal[1]}`);
    expect(v[goal.promptTokens[goal.promptTokens.length - 2]]).toBe('<sep>');
    for (const i of [both, goal]) {
      expect(i.promptTokens).toHaveLength(maze.shape(i.params).promptLength);
      expect(maze.verify(i, i.answerTokens).correct).toBe(true);
    }
    expect(maze.shape(both.params).promptLength).toBe(maze.shape(start.params).promptLength + 1);
    expect(() => parseParams(maze, { size: 4, goalNote: 'on' })).toThrow(
      /maze\.goalNote "on" needs maze\.answer "cells"/,
    );
  });

  it('level 1 is one move: the reference answer is a single move', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const inst = draw({ size: 5, minDist: 4, maxDist: 1 }, seed);
      expect(pathOf(inst)).toHaveLength(1);
      expect(maze.verify(inst, inst.answerTokens).correct).toBe(true);
    }
  });

  it('is named with its range when out of bounds', () => {
    expect(() => parseParams(maze, { size: 4, maxDist: 0 })).toThrow(/maze\.maxDist.*\[1, 99\]/);
  });
});

describe('base completions: random legal walks that never look at the goal', () => {
  it('never hits a wall or leaves the grid, ends with EOS, and is 1 to n² moves long', () => {
    const rng = makeRng(7, STREAM.tasks);
    for (let seed = 1; seed <= 60; seed++) {
      const inst = draw({ size: 3 + (seed % 4), minDist: 1, braid: seed % 3 }, seed);
      const walk = maze.baseCompletion!(rng, inst);
      expect(walk[walk.length - 1]).toBe(EOS);
      const moves = walk.length - 1;
      expect(moves).toBeGreaterThanOrEqual(1);
      expect(moves).toBeLessThanOrEqual(inst.completionLength - 1);
      expect(maze.verify(inst, walk).details.broken).toBeNull();
    }
  });

  it('is the same walk wherever the goal is: the goal is never used', () => {
    const inst = maze.fromJSON({ task: 'maze', params: { size: 4 }, grid: ['S...', '.#.#', '...#', '#..G'] });
    const moved = maze.fromJSON({ task: 'maze', params: { size: 4 }, grid: ['S..G', '.#.#', '...#', '#...'] });
    for (let seed = 1; seed <= 20; seed++) {
      const a = maze.baseCompletion!(makeRng(seed, STREAM.tasks), inst);
      const b = maze.baseCompletion!(makeRng(seed, STREAM.tasks), moved);
      expect(b).toEqual(a);
    }
  });

  it('spreads over the legal moves: from a corner with two open neighbours, each first move about half the time', () => {
    const inst = maze.fromJSON({ task: 'maze', params: { size: 4 }, grid: ['S...', '.#.#', '...#', '#..G'] });
    const rng = makeRng(3, STREAM.tasks);
    let right = 0;
    const n = 2000;
    for (let i = 0; i < n; i++) if (maze.baseCompletion!(rng, inst)[0] === MOVE_ID.R) right++;
    // Binomial(2000, 0.5): ±4.5 standard deviations is ±101.
    expect(Math.abs(right - n / 2)).toBeLessThan(101);
  });
});

describe('answer = cells: each move followed by the cell it reached', () => {
  const grid = ['S..', '.#.', '..G'];
  const inst = maze.fromJSON({ task: 'maze', params: { size: 3, answer: 'cells' }, grid });
  const note = (r: number, c: number): number => maze.vocab(inst.params).indexOf(`${r},${c}`);
  const MOVES = { U: 9, D: 10, L: 11, R: 12 } as const;

  it('has a note token for every cell of the largest grid, twice the room, and a reference answer with true notes', () => {
    expect(maze.vocab(inst.params)).toHaveLength(13 + 100);
    expect(inst.completionLength).toBe(2 * 9 + 1);
    expect(maze.shape(inst.params).completionLength).toBe(19);
    // The first shortest path (U, D, L, R order) is DDRR.
    expect(inst.answerTokens).toEqual([
      MOVES.D,
      note(1, 0),
      MOVES.D,
      note(2, 0),
      MOVES.R,
      note(2, 1),
      MOVES.R,
      note(2, 2),
      EOS,
    ]);
    expect(maze.verify(inst, inst.answerTokens)).toMatchObject({ reward: 1, correct: true });
  });

  it('scores the moves only: wrong notes keep the walk correct and lower the cell alignment', () => {
    const wrongNotes = [MOVES.D, note(0, 0), MOVES.D, note(0, 0), MOVES.R, note(2, 1), MOVES.R, note(2, 2), EOS];
    expect(maze.verify(inst, wrongNotes).correct).toBe(true);
    expect(maze.groupMetrics?.(inst, [inst.answerTokens, wrongNotes])).toMatchObject({
      cell_alignment: 6 / 8,
      distinct_correct_paths: 1,
    });
    // A move where a note belongs is a note (ignored); a note where a move belongs breaks the walk.
    expect(maze.verify(inst, [note(1, 0), MOVES.D, EOS]).details.broken).toBe('badtoken');
  });

  it('base walks carry true notes and stay legal', () => {
    const rng = makeRng(5, STREAM.tasks);
    for (let i = 0; i < 30; i++) {
      const w = maze.baseCompletion!(rng, inst);
      expect(w.length % 2).toBe(1);
      expect(maze.verify(inst, w).details.broken).toBeNull();
      expect(maze.groupMetrics?.(inst, [w]).cell_alignment).toBe(1);
    }
  });
});

describe("the move budget: at most n² moves, and the last slot is the end token's", () => {
  // 3×3: budget 9 moves; answer = moves has 3² + 1 = 10 slots. Grid walks keep their parity, so a
  // walk to G one move away makes an odd number of moves and to G two moves away an even number.
  const near = maze.fromJSON({ task: 'maze', params: testMazeParams(), grid: ['SG.', '...', '...'] });
  const far = maze.fromJSON({ task: 'maze', params: testMazeParams(), grid: ['S.G', '...', '...'] });
  const ids = (path: string): number[] => [...path].map((m) => MOVE_ID[m as Move]);
  const DOT = 5; // the "." cell token: no move and no end

  it('has room for exactly n² moves and the end token', () => {
    expect(near.completionLength).toBe(10);
    expect(near).toMatchObject({ shortest: 1 });
    expect(far).toMatchObject({ shortest: 2 });
  });

  it('9 moves then the end token in the last slot: right on G, wrong elsewhere', () => {
    const onG = ids('DUDUDUDUR'); // 8 moves back and forth, then R onto G at (0,1)
    expect(maze.verify(near, [...onG, EOS])).toMatchObject({
      reward: 1,
      correct: true,
      details: { steps: 9, broken: null },
    });
    const offG = ids('DUDUDUDUD'); // 9 moves, ends at (1,0)
    expect(maze.verify(near, [...offG, EOS])).toMatchObject({
      reward: 0,
      correct: false,
      details: { steps: 9, broken: null, end: [1, 0] },
    });
    // Tokens past the region are not read: the end token in slot 10 closes the walk.
    expect(maze.verify(near, [...onG, EOS, MOVE_ID.D, MOVE_ID.D]).correct).toBe(true);
  });

  it('no end token: move 10 fills the last slot and is wrong, even on G', () => {
    const tenOnG = ids('DUDUDUDURR'); // 10 legal moves, the 10th onto G at (0,2)
    expect(tenOnG).toHaveLength(far.completionLength);
    expect(maze.verify(far, tenOnG)).toMatchObject({
      reward: 0,
      correct: false,
      details: { steps: 9, broken: 'overbudget', end: [0, 1] },
    });
    // The same walk with the end token after it: move 10 is in the last slot, the end token past the region.
    expect(maze.verify(far, [...tenOnG, EOS]).details.broken).toBe('overbudget');
    // 9 moves onto G, then no end token: the last slot holds a token that is not the end.
    expect(maze.verify(near, [...ids('DUDUDUDUR'), DOT])).toMatchObject({
      correct: false,
      details: { steps: 9, broken: 'overbudget' },
    });
    // One move shorter, the end token where it belongs: right.
    expect(maze.verify(far, [...ids('DUDUDURR'), EOS]).correct).toBe(true);
    expect(maze.errorSignature(far, tenOnG)).toBe('overbudget');
  });

  it('progress reward: a walk past the budget scores as one that broke where move 10 began', () => {
    const r = maze.verify(
      maze.fromJSON({ task: 'maze', params: testMazeParams({ reward: 'progress' }), grid: ['S.G', '...', '...'] }),
      ids('DUDUDUDURR'),
    );
    // It stood on (0,1), one move from G (of 2), and broke: 1 − (1 + 0.5) / 2.
    expect(r.reward).toBeCloseTo(0.25, 12);
  });

  it('the first-failure report, the drawn walk and the group metrics agree', () => {
    const tenOnG = ids('DUDUDUDURR');
    expect(walkBreak(far, tenOnG)).toMatchObject({ kind: 'wrong-turn', move: 0, correct: false }); // D first: off the shortest path
    expect(walkBreak(far, [...ids('DUDUDURR'), EOS])).toMatchObject({ kind: 'wrong-turn', correct: true });
    const vocab = maze.vocab(far.params);
    const end = walkEnd(far, vocab, tenOnG, 0);
    expect(end.outcome).toBe('overbudget');
    expect(end.failure).toMatchObject({
      at: [0, 1],
      c: 9,
      why: 'made move 10, past the 9-move budget, at row 1, column 2',
    });
    expect(maze.groupMetrics?.(far, [tenOnG])).toMatchObject({ distinct_correct_paths: 0 });
  });

  it("answer = cells: 9 moves and their notes fill 18 of 19 slots; the 19th is the end's", () => {
    const cells = maze.fromJSON({
      task: 'maze',
      params: testMazeParams({ answer: 'cells' }),
      grid: ['SG.', '...', '...'],
    });
    const farCells = maze.fromJSON({
      task: 'maze',
      params: testMazeParams({ answer: 'cells' }),
      grid: ['S.G', '...', '...'],
    });
    expect(cells.completionLength).toBe(19);
    const note = (r: number, c: number): number => maze.vocab(cells.params).indexOf(`${r},${c}`);
    const withNotes = (path: string): number[] => {
      let [r, c] = [0, 0];
      return [...path].flatMap((m) => {
        const [dr, dc] = MOVE_DELTAS[MOVE_NAMES.indexOf(m as Move)];
        [r, c] = [r + dr, c + dc];
        return [MOVE_ID[m as Move], note(r, c)];
      });
    };
    const nine = withNotes('DUDUDUDUR');
    expect(nine).toHaveLength(18);
    expect(maze.verify(cells, [...nine, EOS]).correct).toBe(true);
    // The end token in the 9th note's slot ends the walk too.
    expect(maze.verify(cells, [...nine.slice(0, 17), EOS]).correct).toBe(true);
    // A 10th move in the last slot (onto G, two away): wrong.
    const ten = [...withNotes('DUDUDUDUR'), MOVE_ID.R];
    expect(ten).toHaveLength(19);
    expect(maze.verify(farCells, ten)).toMatchObject({ correct: false, details: { broken: 'overbudget' } });
    expect(walkBreak(farCells, ten).correct).toBe(false);
    // Any other token in the last slot: wrong too.
    expect(maze.verify(cells, [...nine, DOT]).details.broken).toBe('overbudget');
  });
});
