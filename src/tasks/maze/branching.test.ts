import { describe, expect, it } from 'vitest';
import { mazeTask as maze } from './task';
import { branchingLines, correctWalks, mazeBranching, passAtK, summarizeBranching } from './branching';
import { EOS } from '../types';

const MOVE_ID = { U: 9, D: 10, L: 11, R: 12 } as const;
const walk = (path: string): number[] => [...[...path].map((m) => MOVE_ID[m as keyof typeof MOVE_ID]), EOS];

// Braided 3×3 maze with exactly two shortest paths (RRDD, DDRR); only S is a branch point on them.
const loop = maze.fromJSON({ task: 'maze', params: { size: 3, braid: 1, minDist: 2 }, grid: ['S..', '.#.', '..G'] });

describe('mazeBranching (hand-computed on a maze with exactly 2 shortest paths)', () => {
  const walks = ['RRDD', 'RRDD', 'DDRR', 'RLRRDD', 'RRD', 'U'].map(walk);
  // Entropy at each completion position: 1.0 at position 0 (S, the branch), 0.1 after.
  const ent = walks.map((w) => w.map((_, c) => (c === 0 ? 1 : 0.1)));
  const m = mazeBranching(loop, walks, ent);

  it('counts correct walks, distinct correct paths (a detour is one) and the shortest paths found', () => {
    expect(m.walks).toBe(6);
    expect(m.correct).toBe(4); // RRDD ×2, DDRR, the detour RLRRDD
    expect(m.distinctCorrect).toBe(3);
    expect(m.shortestFound).toBe(1); // both shortest paths
    expect(m.wallOrEdge).toBeCloseTo(1 / 6, 12); // U leaves the grid
  });

  it('splits the entropy between the branch point and the other cells on a shortest path', () => {
    // Branch: position 0 of every walk (6 tokens). Other on-path positions: RRDD 3 ×2, DDRR 3,
    // RLRRDD 1 (the wrong turn at position 1), RRD 3 (positions 1, 2 and the early end at 3), U 0.
    expect(m.branchTokens).toBe(6);
    expect(m.branchEntropy).toBeCloseTo(6, 12);
    expect(m.otherTokens).toBe(13);
    expect(m.otherEntropy).toBeCloseTo(1.3, 12);
  });

  it('lists the distinct correct walks, the most taken first, each marked shortest or not', () => {
    expect(correctWalks(loop, walks)).toEqual([
      { moves: 'RRDD', count: 2, shortest: true },
      { moves: 'DDRR', count: 1, shortest: true },
      { moves: 'RLRRDD', count: 1, shortest: false }, // the detour: correct, not shortest
    ]);
    expect(correctWalks(loop, [walk('U'), walk('RRD')])).toEqual([]);
  });

  it('a collapsed policy: one path over and over finds half the shortest paths', () => {
    const one = mazeBranching(loop, Array(8).fill(walk('RRDD')), Array(8).fill(Array(10).fill(0)));
    expect(one.distinctCorrect).toBe(1);
    expect(one.shortestFound).toBe(0.5);
    expect(one.branchEntropy).toBe(0);
  });
});

describe('passAtK', () => {
  it('is the unbiased estimator', () => {
    expect(passAtK(6, 4, 1)).toBeCloseTo(4 / 6, 12);
    expect(passAtK(6, 4, 2)).toBeCloseTo(1 - 1 / 15, 12); // 1 − C(2,2)/C(6,2)
    expect(passAtK(6, 4, 3)).toBe(1);
    expect(passAtK(5, 0, 3)).toBe(0);
    expect(passAtK(4, 1, 4)).toBe(1);
    expect(passAtK(4, 1, 5)).toBeNaN();
  });
});

describe('summarizeBranching', () => {
  it('averages over mazes, pools the entropies over tokens, and prints pass@k at powers of two', () => {
    const a = mazeBranching(loop, ['RRDD', 'DDRR', 'U', 'RRD'].map(walk), Array(4).fill([1, 0.5, 0.5, 0.5, 0.5]));
    const b = mazeBranching(loop, ['RRDD', 'RRDD', 'RRDD', 'RRDD'].map(walk), Array(4).fill([0, 0, 0, 0, 0]));
    const s = summarizeBranching([a, b]);
    expect(s.mazes).toBe(2);
    expect(s.walksPerMaze).toBe(4);
    expect(s.passAtK[0]).toBeCloseTo((0.5 + 1) / 2, 12);
    expect(s.passAtK[3]).toBe(1);
    expect(s.distinctCorrect).toBe(1.5);
    expect(s.shortestFound).toBe(0.75);
    expect(s.wallOrEdge).toBeCloseTo(0.125, 12);
    // Branch tokens: 4 in a (entropy 1 each), 4 in b (0): pooled 0.5.
    expect(s.branchEntropy).toBeCloseTo(0.5, 12);
    const text = branchingLines(s).join('\n');
    expect(text).toMatch(/pass@k: 1: 0\.750 {2}2: [0-9.]+ {2}4: 1\.000/);
    expect(text).toMatch(/distinct correct paths per maze 1\.50; shortest paths found 75\.0%; walks into a wall or off the grid 12\.5%/);
    expect(text).toMatch(/at branch points 0\.500 nats, elsewhere /);
    // Mazes one move long have no branch points: said in words, not NaN.
    const one = maze.fromJSON({ task: 'maze', params: { size: 3 }, grid: ['SG.', '.#.', '...'] });
    const short = branchingLines(summarizeBranching([mazeBranching(one, [walk('R')], [[0.3, 0.1]])])).join('\n');
    expect(short).toContain('at branch points none on these mazes, elsewhere 0.300 nats');
  });
});
