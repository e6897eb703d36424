// The train/held-out split: training draws never meet held-out draws, the held-out part is a
// real share of the space (not empty, not everything), and an instance's part does not depend
// on how its prompt or answer is written.

import { describe, expect, it } from 'vitest';
import { makeRng, STREAM } from '../core/random';
import { parseParams } from './params';
import { getTask } from './registry';
import {
  hashKey,
  heldOutBy,
  HELD_OUT_PER_MILLE,
  sampleSplit,
  splitKeys,
  SplitEmptyError,
  splitOf,
  splitReport,
} from './split';
import type { Task, TaskInstance } from './types';

/** The lessons' small spaces: 4×4 mazes as maze-base-rl trains them, S3 chains of length 6, sort-easy and start-here's sorts. */
const SMALL_SPACES: [string, string, Record<string, string>][] = [
  ['maze 4×4', 'maze', { size: '4', minDist: '3', maxDist: '10', answer: 'cells', startNote: 'on' }],
  ['S3 length 6', 'groupmul', { group: 'S3', length: '6', layout: 'interleaved', scratch: '0' }],
  ['sort 3 of 3 (sort-easy)', 'sort', { length: '3', alphabet: '3' }],
  ['sort 4 of 4 (start-here)', 'sort', { length: '4', alphabet: '4' }],
];

/** The key of an instance as a set member: every key, by name (computed here, not by the split's code). */
const keyText = (task: Task, inst: TaskInstance): string => JSON.stringify(splitKeys(task, inst));

describe.each(SMALL_SPACES)('the split of %s', (_label, name, raw) => {
  const task = getTask(name);
  const params = parseParams(task, raw);

  it('draws 100,000 training instances, none of them held out and none among 2,000 held-out draws', () => {
    const heldOut = new Set<string>();
    const hrng = makeRng(7, STREAM.heldOut);
    for (let i = 0; i < 2000; i++) heldOut.add(keyText(task, sampleSplit(task, hrng, params, 'heldout')));
    const rng = makeRng(7, STREAM.tasks);
    const trained = new Set<string>();
    let leaks = 0;
    for (let i = 0; i < 100_000; i++) {
      const inst = sampleSplit(task, rng, params, 'train');
      const key = keyText(task, inst);
      trained.add(key);
      if (heldOut.has(key) || heldOutBy(task, inst).length > 0) leaks++;
    }
    expect(leaks).toBe(0);
    // Both parts are real (sort-easy's 27 instances hold out one or two: its eval says it is too small).
    expect(heldOut.size).toBeGreaterThanOrEqual(1);
    expect(trained.size).toBeGreaterThan(heldOut.size);
  });

  it("holds out about the set share of the generator's draws", () => {
    const rng = makeRng(11, STREAM.tasks);
    const n = 20_000;
    let held = 0;
    for (let i = 0; i < n; i++) if (splitOf(task, task.sample(rng, params)) === 'heldout') held++;
    const keys = Object.keys(splitKeys(task, task.sample(rng, params))).length;
    // Each key holds out HELD_OUT_PER_MILLE ‰ of its values; with k independent keys 1 − (1 − s)^k of the space.
    const share = 1 - (1 - HELD_OUT_PER_MILLE / 1000) ** keys;
    // The draws weigh instances unequally, so this is loose: the share must be there, not exact.
    expect(held / n).toBeGreaterThan(share / 3);
    expect(held / n).toBeLessThan(share * 3);
  });
});

describe('split keys', () => {
  it('put a maze in the same part whatever its answer format or notes', () => {
    const task = getTask('maze');
    for (let seed = 0; seed < 300; seed++) {
      const draw = (extra: Record<string, string>): TaskInstance =>
        task.sample(makeRng(seed, STREAM.tasks), parseParams(task, { size: '4', minDist: '3', ...extra }));
      const plain = draw({});
      const noted = draw({ answer: 'cells', startNote: 'on', goalNote: 'on' });
      expect(noted.promptTokens).not.toEqual(plain.promptTokens);
      expect(splitKeys(task, noted)).toEqual(splitKeys(task, plain));
      expect(splitOf(task, noted)).toBe(splitOf(task, plain));
    }
  });

  it('hold out a maze when its grid is held out, whatever its start and goal', () => {
    const task = getTask('maze');
    const inst = { grid: ['S.#', '..#', '..G'] } as unknown as TaskInstance;
    // A grid key is the grid with S and G as open cells: two mazes on one grid share it.
    const other = { grid: ['..#', 'S.#', 'G..'] } as unknown as TaskInstance;
    expect(splitKeys(task, inst)).toEqual({ grid: '..#/..#/...', instance: 'S.#/..#/..G' });
    expect(splitKeys(task, inst).grid).toBe(splitKeys(task, other).grid);
    expect(splitKeys(task, inst).instance).not.toBe(splitKeys(task, other).instance);
  });

  it('put a chain in the same part in either layout', () => {
    const task = getTask('groupmul');
    for (let seed = 0; seed < 300; seed++) {
      const draw = (layout: string): TaskInstance =>
        task.sample(makeRng(seed, STREAM.tasks), parseParams(task, { group: 'S3', length: '5', layout, scratch: '5' }));
      expect(splitOf(task, draw('interleaved'))).toBe(splitOf(task, draw('block')));
    }
  });

  it('hash as FNV-1a then lowbias32 (values worked out once, held so the partition never moves)', () => {
    // The partition of every task hangs on these: a change to the hash re-deals every split.
    expect(hashKey('')).toBe(hashKey(''));
    expect(hashKey('a')).not.toBe(hashKey('b'));
    expect([hashKey(''), hashKey('a'), hashKey('maze/grid/..#')]).toMatchInlineSnapshot(`
      [
        1947474976,
        1817065451,
        167199015,
      ]
    `);
  });
});

describe('a split too small to hold one out', () => {
  it('is a named error that says why, not a hang', () => {
    // S3 chains of length 1 are six instances: find a part that is empty, if any, or build one.
    const task = getTask('groupmul');
    const params = parseParams(task, { group: 'S3', length: '1', layout: 'interleaved', scratch: '0' });
    const parts = new Set<string>();
    const rng = makeRng(3, STREAM.tasks);
    for (let i = 0; i < 200; i++) parts.add(splitOf(task, task.sample(rng, params)));
    const empty = (['train', 'heldout'] as const).find((s) => !parts.has(s));
    if (empty) {
      expect(() => sampleSplit(task, makeRng(3, STREAM.tasks), params, empty)).toThrow(SplitEmptyError);
      expect(() => sampleSplit(task, makeRng(3, STREAM.tasks), params, empty)).toThrow(
        /too small for a train\/held-out split/,
      );
    }
    // Whichever it is, training always has instances at every curriculum length of the flagship (1–6).
    for (let length = 1; length <= 6; length++) {
      const p = parseParams(task, { group: 'S3', length: String(length), layout: 'interleaved', scratch: '0' });
      expect(() => sampleSplit(task, makeRng(5, STREAM.tasks), p, 'train')).not.toThrow();
    }
  });

  it('makes the eval report say the figure is not held out', () => {
    const task = getTask('sort');
    const params = parseParams(task, { length: '2', alphabet: '2' });
    const rng = makeRng(1, STREAM.tasks);
    const insts = Array.from({ length: 8 }, () => task.sample(rng, params));
    const r = splitReport(task, 'train', insts, new Uint8Array(8));
    expect(r.warning).toMatch(/training instances/);
    const few = splitReport(task, 'heldout', insts, new Uint8Array(8));
    expect(few.distinct).toBeLessThanOrEqual(4);
    expect(few.warning).toMatch(/only \d+ distinct held-out instances/);
  });
});
