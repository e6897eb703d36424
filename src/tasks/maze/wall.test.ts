import { describe, expect, it } from 'vitest';
import { makeRng, STREAM } from '../../core/random';
import { boardOf } from './board';
import { MOVE_DELTAS, MOVE_NAMES } from './gen';
import { mazeTask as maze } from './task';
import { wallWalk } from './wall';
import { parseParams } from '../params';
import { EOS } from '../types';

const walkText = (moves: number[]): string => moves.map((m) => MOVE_NAMES[m]).join('');
const boardOfGrid = (grid: string[]) => boardOf(maze.fromJSON({ task: 'maze', params: { size: grid.length }, grid }));

describe('wallWalk: keep a hand on the wall', () => {
  // A ring round one wall, S at the top middle: the right hand goes the short way, the left the long way.
  const ring = boardOfGrid(['.S.', '.#.', '..G']);

  it('takes the first open way from its hand round (worked by hand)', () => {
    expect(walkText(wallWalk(ring, 25, 'right', true))).toBe('RDD');
    expect(walkText(wallWalk(ring, 25, 'left', true))).toBe('LDDRR');
  });

  it('walks on through G when told not to stop, and stops after its limit', () => {
    // Round the ring back to S.
    expect(walkText(wallWalk(ring, 8, 'right', false))).toBe('RDDLLUUR');
    expect(walkText(wallWalk(ring, 2, 'right', false))).toBe('RD');
  });

  it('turns back at a dead end', () => {
    const corridor = boardOfGrid(['S..', '##.', 'G..']);
    expect(walkText(wallWalk(corridor, 6, 'right', true))).toBe('RRDDLL');
    // G is a dead end: walking on, the only way is back.
    expect(walkText(wallWalk(corridor, 7, 'left', false))).toBe('RRDDLLR');
  });

  it('reaches G without entering a wall in every maze without loops', () => {
    const rng = makeRng(11, STREAM.tasks);
    for (let i = 0; i < 200; i++) {
      const inst = maze.sample(rng, parseParams(maze, { size: 3 + (i % 6), minDist: 2 }));
      for (const hand of ['right', 'left'] as const) {
        let [r, c] = inst.start;
        for (const m of wallWalk(boardOf(inst), 4 * inst.grid.length ** 2, hand, true)) {
          [r, c] = [r + MOVE_DELTAS[m][0], c + MOVE_DELTAS[m][1]];
          expect(inst.grid[r]?.[c] ?? '#', `${inst.grid.join('|')} ${hand}`).not.toBe('#');
        }
        expect([r, c], `${inst.grid.join('|')} ${hand}`).toEqual(inst.goal);
      }
    }
  });
});

describe('base completions along a wall (baseWalk right-hand, either-hand)', () => {
  const params = { size: 3, baseWalk: 'either-hand' };
  const inst = maze.fromJSON({ task: 'maze', params, grid: ['.S.', '.#.', '..G'] });
  const moved = maze.fromJSON({ task: 'maze', params, grid: ['.SG', '.#.', '...'] });
  const rightOnly = maze.fromJSON({
    task: 'maze',
    params: { ...params, baseWalk: 'right-hand' },
    grid: ['.S.', '.#.', '..G'],
  });
  // Walking on through G, the right hand goes round the ring clockwise, the left anticlockwise.
  const right = 'RDDLLUURRDDLLUURRDDLLUURR';
  const left = 'LDDRRUULLDDRRUULLDDRRUULL';

  const handOf = (walk: number[]): string => {
    expect(walk[walk.length - 1]).toBe(EOS);
    const text = walk
      .slice(0, -1)
      .map((t) => maze.vocab(inst.params)[t])
      .join('');
    expect(text.length).toBeGreaterThanOrEqual(1);
    expect(text.length).toBeLessThanOrEqual(9);
    return right.startsWith(text) && left.startsWith(text)
      ? 'both'
      : right.startsWith(text)
        ? 'right'
        : left.startsWith(text)
          ? 'left'
          : `neither: ${text}`;
  };

  it('either-hand: wall walks of 1 to n² moves with a hand drawn per walk, the same wherever the goal is', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 60; seed++) {
      const walk = maze.baseCompletion!(makeRng(seed, STREAM.tasks), inst);
      expect(maze.baseCompletion!(makeRng(seed, STREAM.tasks), moved)).toEqual(walk);
      seen.add(handOf(walk));
    }
    expect([...seen].sort()).toEqual(['left', 'right']);
  });

  it('right-hand: the right hand only, 1 to n² moves of it', () => {
    const lengths = new Set<number>();
    for (let seed = 1; seed <= 60; seed++) {
      const walk = maze.baseCompletion!(makeRng(seed, STREAM.tasks), rightOnly);
      expect(handOf(walk)).toBe('right');
      lengths.add(walk.length - 1);
    }
    expect(lengths.size).toBeGreaterThan(5);
  });

  it('are legal walks on drawn mazes, and random walks stay the default', () => {
    expect(parseParams(maze, {}).baseWalk).toBe('random');
    expect(() => parseParams(maze, { baseWalk: 'hand' })).toThrow(/maze\.baseWalk.*random, right-hand, either-hand/);
    const rng = makeRng(4, STREAM.tasks);
    for (let i = 0; i < 40; i++) {
      const drawn = maze.sample(
        rng,
        parseParams(maze, {
          size: 4 + (i % 3),
          minDist: 2,
          baseWalk: i % 2 ? 'right-hand' : 'either-hand',
          answer: 'cells',
        }),
      );
      const walk = maze.baseCompletion!(rng, drawn);
      expect(maze.verify(drawn, walk).details.broken).toBeNull();
      expect(maze.groupMetrics?.(drawn, [walk]).cell_alignment).toBe(1);
    }
  });
});

describe('the reference answer along the wall (solution right-hand)', () => {
  const answerOfGrid = (solution: string, grid: string[]) =>
    maze.fromJSON({ task: 'maze', params: { size: grid.length, solution, answer: 'cells' }, grid }).answerText;

  it('is the right-hand walk to G, detours included, where the shortest path goes the other way (worked by hand)', () => {
    // A ring: G is three moves away to the left, five round the right.
    const ring = ['.S.', '.#.', 'G..'];
    expect(answerOfGrid('shortest', ring)).toBe('L 0,0 D 1,0 D 2,0 <eos>');
    expect(answerOfGrid('right-hand', ring)).toBe('R 0,2 D 1,2 D 2,2 L 2,1 L 2,0 <eos>');
  });

  it('falls back to a shortest path where the right hand does not arrive within the n² budget', () => {
    // The right hand first explores the dead end on the right: RRDDUULLDD, 10 moves against a budget of 9.
    const branch = ['S..', '.#.', 'G#.'];
    expect(walkText(wallWalk(boardOfGrid(branch), 99, 'right', true))).toBe('RRDDUULLDD');
    expect(answerOfGrid('right-hand', branch)).toBe('D 1,0 D 2,0 <eos>');
  });

  it('is always a correct answer, on the same mazes as the shortest-path reference', () => {
    const draws = (solution: string) => {
      const rng = makeRng(5, STREAM.tasks);
      return Array.from({ length: 100 }, () =>
        maze.sample(rng, parseParams(maze, { size: 5, minDist: 4, answer: 'cells', solution })),
      );
    };
    const wall = draws('right-hand');
    const shortest = draws('shortest');
    let longer = 0;
    wall.forEach((inst, i) => {
      expect(inst.grid).toEqual(shortest[i].grid);
      expect(maze.verify(inst, inst.answerTokens).correct).toBe(true);
      if (inst.answerTokens.length > shortest[i].answerTokens.length) longer++;
    });
    // Most 5×5 right-hand walks take a detour that the shortest path does not.
    expect(longer).toBeGreaterThan(30);
  });
});
