import { describe, expect, it } from 'vitest';
import { mazeTask as maze } from './task';
import { walkBreak, walkBreakLines, walkBreakReport, type WalkBreakKind } from './breaks';
import { EOS } from '../types';

const MOVE_ID = { U: 9, D: 10, L: 11, R: 12 } as const;
const walk = (path: string): number[] => [...[...path].map((m) => MOVE_ID[m as keyof typeof MOVE_ID]), EOS];

// Braided 3×3 maze with exactly two shortest paths from S to G (RRDD and DDRR), distance 4.
const loop = maze.fromJSON({ task: 'maze', params: { size: 3, braid: 1, minDist: 2 }, grid: ['S..', '.#.', '..G'] });

describe('walkBreak: where a walk first goes wrong', () => {
  it('the maze has the two shortest paths it is drawn with', () => {
    expect(loop.shortest).toBe(4);
    expect(loop.shortestPaths).toBe(2);
  });

  // Each walk, and where it first goes wrong: the kind, the completion position (with moves only,
  // also the move's index), the tokens that were right there, and whether the walk ends on G.
  const D = MOVE_ID.D;
  const R = MOVE_ID.R;
  it.each<[string, number[], WalkBreakKind | null, number, number[], boolean]>([
    ['a shortest path (RRDD) is unbroken', walk('RRDD'), null, -1, [], true],
    ['the other shortest path (DDRR) is unbroken', walk('DDRR'), null, -1, [], true],
    ['stopping one move short: the end token, where D was right', walk('RRD'), 'stopped-short', 3, [D], false],
    ['overshooting: the move after the goal, where EOS was right', walk('RRDDU'), 'overshoot', 4, [EOS], false],
    ['overshooting and walking back to the goal is still correct', walk('RRDDUD'), 'overshoot', 4, [EOS], true],
    ['a wall', walk('DR'), 'wall', 1, [D], false],
    // From S both R and D stay on a shortest path.
    ['the edge', walk('U'), 'edge', 0, [D, R], false],
    ['a token that is not a move', [4, EOS], 'badtoken', 0, [D, R], false],
    ['a wrong turn', walk('RL'), 'wrong-turn', 1, [R], false],
    ['a wrong turn, counted once, even when a detour reaches the goal', walk('RLRRDD'), 'wrong-turn', 1, [R], true],
  ])('%s', (_, completion, kind, at, right, correct) => {
    expect(walkBreak(loop, completion)).toEqual({ kind, at, move: at, right, correct });
  });

  it('is total: empty, garbage and over-long completions', () => {
    expect(walkBreak(loop, []).kind).toBe('stopped-short');
    expect(walkBreak(loop, [-5, 1e9, NaN]).kind).toBe('badtoken');
    expect(walkBreak(loop, Array(100).fill(MOVE_ID.R)).kind).toBe('edge');
  });
});

describe('walkBreakReport', () => {
  it('counts first failures by kind and by move, with p(right) and collapse', () => {
    const walks = ['RRDD', 'RRD', 'RRDDU', 'RL', 'RLRRDD', 'U'];
    const T = loop.promptTokens.length + loop.completionLength;
    const Lp = loop.promptTokens.length;
    const tokens = new Int32Array(walks.length * T);
    walks.forEach((p, n) => tokens.set(walk(p), n * T + Lp));
    const probs = [0, 0.5, 0.005, 0.2, 0.4, 0.9]; // p(right) given to walk n's break
    const r = walkBreakReport(
      walks.map(() => loop),
      tokens,
      T,
      Lp,
      (n) => probs[n],
    );
    expect(r.correct).toBe(2);
    expect(r.unbroken).toBe(1);
    expect(r.kinds).toEqual({ wall: 0, edge: 1, badtoken: 0, 'wrong-turn': 2, overshoot: 1, 'stopped-short': 1 });
    expect(r.detours).toBe(1);
    expect(r.byMove).toEqual([1, 2, 0, 1, 1]);
    expect(r.kindByMove['wrong-turn']).toEqual([0, 2]);
    expect(r.kindByMove.edge).toEqual([1]);
    expect(r.pRight['wrong-turn']).toBeCloseTo(0.3, 12);
    expect(r.pRight.overshoot).toBe(0.005);
    expect(r.collapsed).toBe(1);
    const text = walkBreakLines(r).join('\n');
    expect(text).toMatch(/shortest path to the goal: 1 \(17%\); on the goal at the end: 2 \(33%\)/);
    expect(text).toMatch(/wrong turn.* 2 \(33%\); p\(right there\) 0\.300, 1 still reached the goal; at move 2:2$/m);
    expect(text).toMatch(/first failure at move: 1:1 {2}2:2 {2}4:1 {2}5:1$/m);
    expect(text).toMatch(/collapsed \(p\(right\) < 0\.01\): 1 of 5/);
  });
});

describe('walkBreak with notes (answer = cells)', () => {
  const cells = maze.fromJSON({ task: 'maze', params: { size: 3, answer: 'cells' }, grid: ['S..', '.#.', '..G'] });
  const note = (r: number, c: number): number => maze.vocab(cells.params).indexOf(`${r},${c}`);

  it('names completion positions of the move slots', () => {
    // R (0,1) R (0,2) D (1,2), then EOS at position 6 one move short.
    const short = [MOVE_ID.R, note(0, 1), MOVE_ID.R, note(0, 2), MOVE_ID.D, note(1, 2), EOS];
    expect(walkBreak(cells, short)).toEqual({
      kind: 'stopped-short',
      at: 6,
      move: 3,
      right: [MOVE_ID.D],
      correct: false,
    });
    const wall = [MOVE_ID.D, note(1, 0), MOVE_ID.R, note(1, 1), EOS];
    // The second move (index 1) at completion position 2: the report counts moves, not positions.
    expect(walkBreak(cells, wall)).toEqual({ kind: 'wall', at: 2, move: 1, right: [MOVE_ID.D], correct: false });
  });
});
