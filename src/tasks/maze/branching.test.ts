import { describe, expect, it } from 'vitest';
import { mazeTask as maze } from './task';
import {
  branchingLines,
  correctWalks,
  mazeBranching,
  passAtK,
  simpson,
  summarizeBranching,
  walkFacts,
} from './branching';
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
    expect(m.wallContact).toBeCloseTo(1 / 6, 12); // U leaves the grid
    expect(m.firstFailureWall).toBeCloseTo(1 / 6, 12);
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
      { moves: 'RRDD', count: 2, shortest: true, simple: true },
      { moves: 'DDRR', count: 1, shortest: true, simple: true },
      { moves: 'RLRRDD', count: 1, shortest: false, simple: false }, // the detour: correct, not shortest, S twice
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
    expect(s.wallContact).toBeCloseTo(0.125, 12);
    // Branch tokens: 4 in a (entropy 1 each), 4 in b (0): pooled 0.5.
    expect(s.branchEntropy).toBeCloseTo(0.5, 12);
    const text = branchingLines(s).join('\n');
    expect(text).toMatch(/pass@k: 1: 0\.750 {2}2: [0-9.]+ {2}4: 1\.000/);
    expect(text).toMatch(
      /distinct correct walks per maze 1\.50: shortest 1\.50 \(shortest paths found 75\.0%\), simple 1\.50/,
    );
    expect(text).toMatch(/wall or edge contact at any point 12\.5% of walks; as the first failure 12\.5%/);
    expect(text).toMatch(/at branch points 0\.500 nats, elsewhere /);
    // Mazes one move long have no branch points: said in words, not NaN.
    const one = maze.fromJSON({ task: 'maze', params: { size: 3 }, grid: ['SG.', '.#.', '...'] });
    const short = branchingLines(summarizeBranching([mazeBranching(one, [walk('R')], [[0.3, 0.1]])])).join('\n');
    expect(short).toContain('at branch points none on these mazes, elsewhere 0.300 nats');
  });
});

describe('shortest and simple walks, Simpson, matched counts, wall contact (hand-computed on an open 3×3 grid)', () => {
  // No walls: 6 shortest paths of 4 moves from (0,0) to (2,2).
  const open = maze.fromJSON({ task: 'maze', params: { size: 3, minDist: 2 }, grid: ['S..', '...', '..G'] });
  const paths = [
    'RRDD', // shortest
    'RRDLLDRR', // correct, simple (no cell twice), not shortest
    'RLRRDD', // correct, S twice: neither simple nor shortest
    'RRDD', // shortest again
    'DDRR', // shortest
    'RDDR', // shortest
    'U', // off the grid at once: contact, and the first failure is the edge
    'RLRU', // a wrong turn (L back to S), then off the grid: contact, first failure a wrong turn
  ];
  const walks = paths.map(walk);
  const m = mazeBranching(open, walks, [], 2);

  it('reads each walk: correct, shortest, simple, wall contact, first failure', () => {
    expect(
      paths
        .map((p) => walkFacts(open, walk(p)))
        .map((f) => [f.correct, f.shortest, f.simple, f.wallContact, f.firstFailure]),
    ).toEqual([
      [true, true, true, false, null],
      [true, false, true, false, 'wrong-turn'],
      [true, false, false, false, 'wrong-turn'],
      [true, true, true, false, null],
      [true, true, true, false, null],
      [true, true, true, false, null],
      [false, false, false, true, 'edge'],
      [false, false, false, true, 'wrong-turn'],
    ]);
  });

  it('counts distinct correct, shortest and simple walks, and Simpson over the shortest and the simple', () => {
    expect(m).toMatchObject({
      walks: 8,
      correct: 6,
      distinctCorrect: 5,
      shortestCorrect: 4,
      distinctShortest: 3,
      simpleCorrect: 5,
      distinctSimple: 4,
      shortestFound: 3 / 6,
    });
    // Shortest: RRDD ×2, DDRR, RDDR → 1 − (1/4 + 1/16 + 1/16). Simple: those and RRDLLDRR → 1 − (4 + 1 + 1 + 1)/25.
    expect(m.simpsonShortest).toBeCloseTo(0.625, 12);
    expect(m.simpsonSimple).toBeCloseTo(18 / 25, 12);
    expect(simpson([])).toBeNaN();
    expect(simpson(['RRDD', 'DDRR'])).toBe(0.5);
  });

  it('at a matched count takes the first k of each kind in sample order, and none where there are fewer', () => {
    expect(m.k).toBe(2);
    expect(m.matchedCorrect).toEqual({ distinct: 2, simpson: 0.5 }); // RRDD, RRDLLDRR
    expect(m.matchedShortest).toEqual({ distinct: 1, simpson: 0 }); // RRDD, RRDD
    expect(m.matchedSimple).toEqual({ distinct: 2, simpson: 0.5 });
    const at5 = mazeBranching(open, walks, [], 5);
    expect(at5.matchedCorrect).toEqual({ distinct: 4, simpson: 1 - (4 + 1 + 1 + 1) / 25 });
    expect(at5.matchedShortest).toBeNull(); // 4 shortest walks only
  });

  it('wall contact at any point counts the wall after a wrong turn; the first-failure wall rate does not; the in-run wall_or_edge is the former', () => {
    expect(m.wallContact).toBe(2 / 8);
    expect(m.firstFailureWall).toBe(1 / 8);
    expect(maze.groupMetrics?.(open, walks).wall_or_edge).toBe(2 / 8);
  });

  it('summarizes over mazes: matched means over the mazes with k, the others counted', () => {
    const other = mazeBranching(open, ['DDRR', 'DDRR', 'DRDR', 'DDRR', 'DDRR'].map(walk), [], 5);
    const s = summarizeBranching([mazeBranching(open, walks, [], 5), other]);
    expect(s.k).toBe(5);
    expect(s.matchedShortest).toMatchObject({ mazes: 1, excluded: 1, distinct: 2 });
    expect(s.matchedShortest.simpson).toBeCloseTo(1 - (16 + 1) / 25, 12);
    expect(s.matchedCorrect.mazes).toBe(2);
    expect(s.distinctShortest).toBe((3 + 2) / 2);
    expect(s.simpsonShortest).toBeCloseTo((0.625 + 1 - (16 + 1) / 25) / 2, 12);
    expect(s.simpsonShortestMazes).toBe(2);
    const text = branchingLines(s).join('\n');
    expect(text).toContain(
      'at a matched count, the first 5 of each maze: distinct correct 3.00 (2 mazes); shortest 2.00, Simpson 0.32 (1 mazes; 1 with fewer left out)',
    );
  });
});
