// fast-check arbitraries shared by the task tests (test-only; the library never imports this).

import fc from 'fast-check';
import { GROUP_NAMES } from './groupmul';
import type { TaskName } from './registry';
import type { ParamSpec, Task, TaskParams } from './types';

const groupmulParams = fc
  .record({
    group: fc.constantFrom(...GROUP_NAMES),
    length: fc.integer({ min: 2, max: 16 }),
    layout: fc.constantFrom('block', 'interleaved'),
    reward: fc.constantFrom('last', 'dense'),
  })
  .chain((p) =>
    (p.layout === 'interleaved' ? fc.constantFrom(0, p.length) : fc.integer({ min: 0, max: p.length })).map(
      (scratch) => ({ ...p, scratch }),
    ),
  );

// Small sizes dominate so the suite stays fast; size 10 still appears.
const mazeParams = fc
  .record({
    size: fc.oneof(
      { arbitrary: fc.integer({ min: 3, max: 6 }), weight: 3 },
      { arbitrary: fc.integer({ min: 7, max: 10 }), weight: 1 },
    ),
    braid: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 16 })),
    reward: fc.constantFrom('binary', 'shortest', 'progress'),
    maxDist: fc.oneof(fc.constant(99), fc.integer({ min: 1, max: 20 })),
    nearGoals: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 100 })),
    answer: fc.constantFrom('moves', 'cells'),
  })
  .chain((p) => fc.integer({ min: 1, max: 2 * (p.size - 1) }).map((minDist) => ({ ...p, minDist })));

const sortParams = fc.record({
  length: fc.integer({ min: 2, max: 12 }),
  alphabet: fc.integer({ min: 2, max: 26 }),
  reward: fc.constantFrom('exact', 'partial'),
});

const subsetsumParams = fc.record({
  count: fc.integer({ min: 2, max: 12 }),
  maxValue: fc.integer({ min: 2, max: 99 }),
});

/** Tuned parameters of some tasks: small sizes first, cross-parameter constraints built in. */
export const PARAM_ARBITRARIES: Partial<Record<TaskName, fc.Arbitrary<TaskParams>>> = {
  groupmul: groupmulParams,
  maze: mazeParams,
  sort: sortParams,
  subsetsum: subsetsumParams,
};

function specValue(spec: ParamSpec): fc.Arbitrary<string | number> {
  if (spec.kind === 'int') return fc.integer({ min: spec.min ?? 0, max: spec.max ?? 16 });
  return spec.values?.length ? fc.constantFrom(...spec.values) : fc.constant(spec.default);
}

/**
 * Valid parameters of a task: tuned where PARAM_ARBITRARIES has it, else drawn from the task's
 * spec table and kept when checkParams accepts them (so a new task is tested with no line here).
 */
export function paramsArbitrary(name: TaskName, task: Task): fc.Arbitrary<TaskParams> {
  return PARAM_ARBITRARIES[name] ?? specArbitrary(task);
}

/** Parameters drawn from a task's spec table, kept when checkParams accepts them. */
export function specArbitrary(task: Task): fc.Arbitrary<TaskParams> {
  const fields = Object.fromEntries(task.params.map((spec) => [spec.name, specValue(spec)]));
  return fc.record(fields).filter((p) => {
    try {
      task.checkParams?.(p);
      return true;
    } catch {
      return false;
    }
  });
}

/** Any JS numbers a buggy engine or a hand-written line could produce as token ids. */
export function junkToken(vocabSize: number): fc.Arbitrary<number> {
  return fc.oneof(
    fc.integer({ min: -3, max: vocabSize + 3 }),
    fc.constantFrom(0, 1, 2, 3),
    fc.integer(),
    fc.double(),
    fc.constantFrom(NaN, Infinity, -Infinity, 0.5, -0),
  );
}

/** Token arrays from empty to well past the completion region. */
export function junkCompletion(vocabSize: number, completionLength: number): fc.Arbitrary<number[]> {
  return fc.array(junkToken(vocabSize), { maxLength: 2 * completionLength + 4 });
}
