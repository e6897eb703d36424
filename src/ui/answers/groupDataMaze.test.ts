// groupData on the maze: the board, each walk's ending and failing token, its markers and
// colours, and agreement with the verifier. (The other tasks: groupData.test.ts.)

import { describe, expect, it } from 'vitest';
import { mazeTask, type MazeInstance } from '../../tasks/maze';
import { EOS } from '../../tasks/types';
import { makeRng } from '../../core/random';
import { css, mix, NEGATIVE, POSITIVE, WHITE } from '../views/colour';
import { cappedCells, COMPACT_ROW_TOKENS, groupData, visibleCells, type GroupViewData } from './groupData';
import { walkColour, ZERO_ADVANTAGE_STROKE } from './boardDraw';
import { testRollout } from './testRollout';
import { testMazeParams } from '../../tasks/maze/testParams';

const texts = (data: GroupViewData, g: number, showSpecial = false): string[] =>
  visibleCells(data.answers[g].cells, showSpecial).map((c) => c.text);

// ── maze ────────────────────────────────────────────────────────────────────────────────────

const mazeVocab = mazeTask.vocab(testMazeParams());
const M = (s: string): number[] => [...s].map((ch) => mazeVocab.indexOf(ch));
// S.#
// #..
// #.G
const mazeInst = mazeTask.fromJSON({ task: 'maze', params: testMazeParams(), grid: ['S.#', '#..', '#.G'] });
const walks = [
  [...M('RDRD'), EOS], // 0 goal
  [...M('RR'), EOS], // 1 into the wall at (0,2)
  [...M('U'), EOS], // 2 off the grid from (0,0)
  [...M('R#D'), EOS], // 3 a cell token where a move belongs
  [EOS], // 4 stops at the start
  [...M('RRD'), EOS], // 5 the same wall as 1
  [...M('RDDR'), EOS], // 6 goal, the other shortest path
  M('RLRLRLRLRL'), // 7 no end token: move 10 fills the last slot, past the 9-move budget
];

describe('groupData: maze', () => {
  const r = testRollout([mazeInst], { completions: [walks] });
  const d = groupData(r, 0);
  if (d.kind !== 'board') throw new Error('expected board data');
  const mz = d.board;

  it('the prompt names the maze, the answer the shortest path', () => {
    expect(d.prompt).toBe('a 3×3 maze');
    expect(d.question).toBe('Walk from S to G.');
    expect(d.answer).toBe('shortest path 4 moves, 2 of them');
    expect(d.rightText).toBe('2 of 8 right');
  });

  it('moves read as arrows; specials and what follows the end are hidden, except a lone end token', () => {
    expect(texts(d, 0)).toEqual(['→', '↓', '→', '↓']);
    expect(texts(d, 3)).toEqual(['→', '#', '↓']);
    // A walk that stops at the start keeps its end token (drawn ∅), not an empty row.
    expect(texts(d, 4)).toEqual(['<eos>']);
    expect(visibleCells(d.answers[4].cells, false).map((c) => c.special)).toEqual([true]);
  });

  it('a side panel cuts a long walk to its first tokens and counts the rest', () => {
    const cells = visibleCells(d.answers[7].cells, false);
    expect(cells).toHaveLength(10);
    const { shown, more } = cappedCells(cells, COMPACT_ROW_TOKENS);
    expect(shown.map((c) => c.text)).toEqual(['→', '←', '→', '←']);
    expect(more).toBe(6);
    expect(cappedCells(visibleCells(d.answers[0].cells, false), COMPACT_ROW_TOKENS)).toMatchObject({ more: 0 });
  });

  it('each walk: how it ended, where, and which token failed', () => {
    expect(mz.walks.map((w) => w.outcome)).toEqual([
      'goal',
      'wall',
      'offgrid',
      'badtoken',
      'stopped',
      'wall',
      'goal',
      'overbudget',
    ]);
    expect(mz.walks[1].failure).toEqual({
      kind: 'wall',
      at: [0, 1],
      into: [0, 2],
      c: 1,
      why: 'walked into the wall at row 1, column 3',
    });
    expect(mz.walks[2].failure).toMatchObject({ kind: 'offgrid', at: [0, 0], into: [-1, 0], c: 0 });
    expect(mz.walks[2].failure?.why).toBe('walked off the grid from row 1, column 1 (move ↑)');
    expect(mz.walks[3].failure).toMatchObject({
      kind: 'badtoken',
      at: [0, 1],
      c: 1,
      why: 'wrote "#" where a move belongs, at row 1, column 2',
    });
    expect(mz.walks[4].failure).toMatchObject({
      kind: 'stopped',
      at: [0, 0],
      c: 0,
      why: 'stopped at row 1, column 1, 4 moves from the goal',
    });
    expect(mz.walks[7].failure).toMatchObject({
      kind: 'overbudget',
      at: [0, 1],
      c: 9,
      why: 'made move 10, past the 9-move budget, at row 1, column 2',
    });
    expect(mz.walks[0].summary).toBe('reached the goal in 4 moves (shortest 4)');
    expect(d.answers.map((a) => a.failureAt)).toEqual([null, 1, 0, 1, 0, 1, null, 9]);
    expect(d.answers[1].note).toBe('walked into the wall at row 1, column 3');
  });

  it('markers: a ✓ at the goal, each failure where it happened, repeats counted once', () => {
    const byKind = Object.fromEntries(mz.markers.map((m) => [m.kinds.join(' '), m]));
    expect(mz.markers).toHaveLength(5);
    expect(byKind.goal).toMatchObject({ kind: 'goal', count: 2, gs: [0, 6] });
    // On the edge between (0,1) and the wall at (0,2), with a stub from the cell's centre.
    expect(byKind.wall).toMatchObject({
      kind: 'failure',
      x: 2,
      y: 0.5,
      count: 2,
      gs: [1, 5],
      stub: { x1: 1.5, y1: 0.5, x2: 2, y2: 0.5 },
    });
    expect(byKind.offgrid).toMatchObject({ x: 0.5, y: 0, count: 1 });
    // No wall to point at: a corner of its cell, the one farthest from the other marks.
    // The bad token and the move past the budget both failed on (0,1): one mark, two kinds.
    const badtoken = byKind['badtoken overbudget'];
    expect(badtoken).toMatchObject({ stub: null, count: 2, gs: [3, 7] });
    expect([Math.abs(badtoken.x - 1.5), Math.abs(badtoken.y - 0.5)].map((v) => v.toFixed(2))).toEqual(['0.27', '0.27']);
    expect(byKind.stopped).toMatchObject({ count: 1, gs: [4] });
    expect([Math.abs(byKind.stopped.x - 0.5), Math.abs(byKind.stopped.y - 0.5)].map((v) => v.toFixed(2))).toEqual([
      '0.27',
      '0.27',
    ]);
    expect(byKind.wall.title).toBe('2 failed here (answers 2, 6):\nwalked into the wall at row 1, column 3');
  });

  it('walk colours follow the sequence advantage', () => {
    // Rewards 2 of 8: A = +0.75 for the right walks, −0.25 for the others; bound 0.75.
    // The task gives each walk its tone A / bound; the board's palette turns it into a colour.
    expect(mz.walks[0].tone).toBe(1);
    expect(mz.walks[1].tone).toBeCloseTo(-1 / 3, 12);
    expect(walkColour(mz.walks[0].tone)).toBe(css(POSITIVE));
    expect(walkColour(mz.walks[1].tone)).toBe(css(mix(WHITE, NEGATIVE, 0.4 + 0.6 / 3)));
    expect(walkColour(0)).toBe(ZERO_ADVANTAGE_STROKE);
    expect(walkColour(undefined)).toBe(ZERO_ADVANTAGE_STROKE);
    expect(mz.walks.map((w) => w.offset)).toEqual(mz.walks.map((_, g) => (g / 7 - 0.5) * 0.5));
  });

  it('before the verify phase: walks drawn, nothing judged', () => {
    const p = groupData(testRollout([mazeInst], { completions: [walks], advantages: false, phase: 'sample' }), 0);
    if (p.kind !== 'board') throw new Error('expected board data');
    expect(p.board.markers).toEqual([]);
    expect(p.answers.every((a) => a.note === null && a.failureAt === null)).toBe(true);
    expect(p.board.walks.every((w) => w.correct === null && w.tone === undefined)).toBe(true);
  });

  it('agrees with the verifier on random walks', () => {
    const rng = makeRng(12, 1);
    for (let i = 0; i < 30; i++) {
      const params = testMazeParams({ size: 3 + (i % 4), braid: i % 2 });
      const inst: MazeInstance = mazeTask.sample(rng, params);
      const comps = Array.from({ length: 4 }, () =>
        Array.from({ length: inst.completionLength }, () => {
          const u = rng.next();
          return u < 0.85 ? M('UDLR')[rng.int(4)] : u < 0.95 ? EOS : rng.int(mazeVocab.length);
        }),
      );
      const dd = groupData(testRollout([inst], { completions: [comps] }), 0);
      if (dd.kind !== 'board') throw new Error('expected board data');
      dd.board.walks.forEach((w, g) => {
        const sig = mazeTask.errorSignature(inst, comps[g]);
        const expected =
          w.outcome === 'goal' ? 'correct' : w.outcome === 'stopped' ? `stopped@${w.failure!.at.join(',')}` : w.outcome;
        expect(sig).toBe(expected);
        expect(w.correct).toBe(sig === 'correct');
      });
    }
  });
});
