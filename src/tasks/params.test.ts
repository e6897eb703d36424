import { describe, expect, it } from 'vitest';
import { defaultParams, enumParam, intParam, parseParams, validateParams } from './params';
import { TASKS } from './registry';
import { TaskParamError, type ParamSpec, type Task } from './types';
import { thrown } from '../core/thrown';

const { groupmul, maze, sort, subsetsum } = TASKS;

const paramError = (fn: () => unknown): TaskParamError => thrown(TaskParamError, fn);

describe('parameter specs', () => {
  it('intParam and enumParam write a row of a spec table; an enum defaults to its first value', () => {
    expect(intParam('size', 5, [3, 10], 'Grid side n.')).toEqual({
      name: 'size',
      kind: 'int',
      default: 5,
      min: 3,
      max: 10,
      doc: 'Grid side n.',
    });
    expect(enumParam('reward', ['binary', 'shortest'], 'The reward.')).toEqual({
      name: 'reward',
      kind: 'enum',
      default: 'binary',
      values: ['binary', 'shortest'],
      doc: 'The reward.',
    });
  });

  it('are plain data with a one-sentence doc and a default that validates', () => {
    for (const task of Object.values(TASKS) as Task[]) {
      const specs: readonly ParamSpec[] = task.params;
      expect(JSON.parse(JSON.stringify(specs))).toEqual(specs);
      for (const s of specs) {
        expect(s.doc.length).toBeGreaterThan(10);
        if (s.kind === 'int') {
          expect(s.min).toBeTypeOf('number');
          expect(s.max).toBeTypeOf('number');
        } else {
          expect(s.values?.includes(String(s.default))).toBe(true);
        }
      }
      expect(() => defaultParams(task)).not.toThrow();
    }
  });

  it('use the stable names', () => {
    const names = (specs: readonly ParamSpec[]): string[] => specs.map((s) => s.name);
    expect(names(groupmul.params)).toEqual(['group', 'length', 'scratch', 'layout', 'reward']);
    expect(names(maze.params)).toEqual([
      'size',
      'braid',
      'minDist',
      'maxDist',
      'nearGoals',
      'reward',
      'answer',
      'startNote',
      'goalNote',
      'solution',
      'baseWalk',
    ]);
    expect(names(sort.params)).toEqual(['length', 'alphabet', 'reward', 'verifier']);
    expect(names(subsetsum.params)).toEqual(['count', 'maxValue']);
  });

  it('default to S3, block layout, last-token reward; binary maze reward; exact sort', () => {
    expect(defaultParams(groupmul)).toMatchObject({ group: 'S3', layout: 'block', reward: 'last', scratch: 0 });
    expect(defaultParams(maze).reward).toBe('binary');
    expect(defaultParams(sort).reward).toBe('exact');
  });
});

describe('parseParams', () => {
  it('fills defaults and coerces numeric strings from URLs and flags', () => {
    expect(parseParams(groupmul, { length: '12', group: 'D5' })).toEqual({
      group: 'D5',
      length: 12,
      scratch: 0,
      layout: 'block',
      reward: 'last',
    });
    expect(validateParams(sort, { length: 3, alphabet: 4, reward: 'partial', verifier: 'exact' })).toEqual({
      length: 3,
      alphabet: 4,
      reward: 'partial',
      verifier: 'exact',
    });
  });

  it('names the parameter and the range for an out-of-range integer', () => {
    const e = paramError(() => parseParams(groupmul, { length: 40 }));
    expect(e.message).toBe('groupmul.length must be an integer in [1, 16], got 40');
    expect(e.param).toBe('length');
    expect(paramError(() => parseParams(groupmul, { length: '8.5' })).message).toBe(
      'groupmul.length must be an integer in [1, 16], got "8.5"',
    );
    expect(paramError(() => parseParams(maze, { size: 2.5 })).message).toBe(
      'maze.size must be an integer in [3, 10], got 2.5',
    );
    expect(paramError(() => parseParams(subsetsum, { count: 'lots' })).message).toBe(
      'subsetsum.count must be an integer in [2, 12], got "lots"',
    );
  });

  it('lists the allowed values for a bad enum or group', () => {
    expect(paramError(() => parseParams(groupmul, { group: 'X' })).message).toBe(
      'groupmul.group must be one of Z<n> (n 2..12), D<n> (n 3..8), S3, S4, A4, A5, S5, Q8, quasi<n> (n 2..8), got "X"',
    );
    expect(paramError(() => parseParams(maze, { reward: 'sparse' })).message).toBe(
      'maze.reward must be one of binary, shortest, progress, got "sparse"',
    );
    expect(paramError(() => parseParams(groupmul, { layout: 3 })).message).toBe(
      'groupmul.layout must be one of block, interleaved, got 3',
    );
  });

  it('rejects unknown parameter names, listing the allowed ones', () => {
    const e = paramError(() => parseParams(groupmul, { seed: 3 }));
    expect(e.message).toBe('groupmul has no parameter "seed"; allowed: group, length, scratch, layout, reward');
    expect(e.param).toBe('seed');
  });

  it('checks constraints between parameters', () => {
    expect(paramError(() => parseParams(maze, { size: 4, minDist: 7 })).message).toBe(
      'maze.minDist must be an integer in [1, 2·(size−1)] = [1, 6] for size 4, got 7',
    );
    expect(paramError(() => parseParams(groupmul, { length: 4, scratch: 5 })).message).toBe(
      'groupmul.scratch must be an integer in [0, length] = [0, 4], got 5',
    );
    expect(paramError(() => parseParams(groupmul, { length: 4, scratch: 2, layout: 'interleaved' })).param).toBe(
      'scratch',
    );
    expect(() => parseParams(groupmul, { length: 4, scratch: 4, layout: 'interleaved' })).not.toThrow();
  });

  it('rejects a params value that is not an object', () => {
    expect(paramError(() => parseParams(sort, [] as unknown as Record<string, unknown>)).param).toBe('params');
  });
});
