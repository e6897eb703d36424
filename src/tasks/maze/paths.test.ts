import { describe, expect, it } from 'vitest';
import { mazeTask } from '.';
import { makeRng } from '../../core/random';
import { decodeInstancePath, decodeMazePath, moveOf, pathOffset } from './paths';
import { pathPoints } from '../picture';
import { testMazeParams } from './testParams';

const vocab = mazeTask.vocab(testMazeParams({ size: 5, minDist: 4 }));
const id = (text: string): number => vocab.indexOf(text);

describe('maze path decoding', () => {
  const grid = ['S.#', '#..', '#.G'];
  /** The cells of the walk RDRD from S, the only way through this grid. */
  const RDRD_CELLS = [
    [0, 0],
    [0, 1],
    [1, 1],
    [1, 2],
    [2, 2],
  ];
  it('reads moves through the vocabulary', () => {
    expect(['U', 'D', 'L', 'R', '#', '<eos>'].map((t) => moveOf(vocab, id(t)))).toEqual([0, 1, 2, 3, -1, -1]);
    expect(moveOf(vocab, 99)).toBe(-1);
  });

  it('follows moves to the EOS', () => {
    const p = decodeMazePath(grid, [0, 0], vocab, ['R', 'D', 'R', 'D', '<eos>', 'U'].map(id));
    expect(p).toEqual({
      cells: RDRD_CELLS,
      moves: 'RDRD',
      broken: null,
      stop: 4,
    });
  });

  it('skips the cell notes with answer = cells, and stops where the walk did', () => {
    const cells = mazeTask.vocab(testMazeParams({ answer: 'cells' }));
    const cid = (text: string): number => cells.indexOf(text);
    const walk = ['R', '0,1', 'D', '1,1', 'R', '9,9', 'D', '2,2', '<eos>'].map(cid);
    expect(decodeMazePath(grid, [0, 0], cells, walk, 2)).toEqual({
      cells: RDRD_CELLS,
      moves: 'RDRD',
      broken: null,
      stop: 8,
    });
    expect(decodeMazePath(grid, [0, 0], cells, ['R', '0,1', 'R'].map(cid), 2)).toMatchObject({
      moves: 'R',
      broken: 'wall',
      stop: 2,
    });
    expect(decodeMazePath(grid, [0, 0], cells, ['R', '<eos>', 'D'].map(cid), 2)).toMatchObject({
      moves: 'R',
      broken: null,
      stop: 1,
    });
  });

  it('stops at a wall, the grid edge, or a token that is not a move', () => {
    expect(decodeMazePath(grid, [0, 0], vocab, ['R', 'R'].map(id))).toMatchObject({ moves: 'R', broken: 'wall' });
    expect(decodeMazePath(grid, [0, 0], vocab, ['U'].map(id))).toMatchObject({ cells: [[0, 0]], broken: 'offgrid' });
    expect(decodeMazePath(grid, [0, 0], vocab, ['R', '.', 'D'].map(id))).toMatchObject({
      moves: 'R',
      broken: 'badtoken',
    });
    expect(decodeMazePath(grid, [0, 0], vocab, [-3])).toMatchObject({ broken: 'badtoken' });
  });

  it('agrees with the maze verifier on random walks (end cell, steps, break)', () => {
    const rng = makeRng(5, 1);
    for (let i = 0; i < 60; i++) {
      const params = testMazeParams({ size: 3 + (i % 4), braid: i % 3 });
      const inst = mazeTask.sample(rng, params);
      // Mostly moves, sometimes EOS or another token.
      const comp = Array.from({ length: inst.completionLength }, () => {
        const u = rng.next();
        return u < 0.9 ? id('UDLR'[rng.int(4)]) : u < 0.95 ? id('<eos>') : rng.int(vocab.length);
      });
      const p = decodeInstancePath(inst, vocab, comp);
      const v = mazeTask.verify(inst, comp);
      expect(p.cells[p.cells.length - 1]).toEqual(v.details.end);
      expect(p.moves.length).toBe(v.details.steps);
      expect(p.broken).toBe(v.details.broken);
      if (i % 5 === 0) expect(decodeInstancePath(inst, vocab, inst.answerTokens).cells.at(-1)).toEqual(inst.goal);
    }
  });

  it('offsets spread the paths evenly and symmetrically', () => {
    expect(pathOffset(0, 1)).toBe(0);
    expect(pathOffset(0, 5)).toBeCloseTo(-0.25);
    expect(pathOffset(4, 5)).toBeCloseTo(0.25);
    expect(pathOffset(2, 5)).toBeCloseTo(0);
    expect(
      pathPoints(
        [
          [0, 0],
          [1, 2],
        ],
        10,
        0.1,
      ),
    ).toBe('6.0,6.0 26.0,16.0');
  });
});
