// The checks on every call of custom code (docs/custom-estimators.md, "What is checked"): the
// output is an array of numbers of an allowed length, every value finite, and the input arrays
// are as they were given. They run in the trainer, never in the sandbox, on what the runtime
// reported; each failure is a CustomCodeError pointing at the function's line.

import { CODE_FUNCTION, functionLine, type CodeKind } from '../../config/user-code';
import { CustomCodeError } from './custom-code-errors';
import type { InputArray, OutputSummary, SandboxInput } from './sandbox';

/** An allowed output length and what it means ("N = 8, one per completion"). */
export interface AllowedLength {
  length: number;
  meaning: string;
}

function fail(kind: CodeKind, source: string, failure: 'output' | 'mutation', detail: string): never {
  throw new CustomCodeError(kind, failure, detail, functionLine(source, kind));
}

/** The output as a fresh Float64Array, or a CustomCodeError saying what is wrong with it. */
export function checkOutput(
  kind: CodeKind,
  source: string,
  output: OutputSummary | undefined,
  allowed: readonly AllowedLength[],
): Float64Array {
  const name = `${CODE_FUNCTION[kind]}(batch)`;
  const want = allowed.map((a) => `${a.length} (${a.meaning})`).join(' or ');
  if (!output || output.values === null || output.length < 0) {
    fail(
      kind,
      source,
      'output',
      `${name} returned ${output?.type ?? 'nothing'}; it must return an array of ${want} numbers`,
    );
  }
  if (!allowed.some((a) => a.length === output.length)) {
    fail(kind, source, 'output', `${name} returned ${output.length} values; expected ${want}`);
  }
  if (output.bad >= 0) {
    fail(
      kind,
      source,
      'output',
      `${name} returned ${output.badType === 'undefined' ? 'undefined (a hole?)' : `a ${output.badType}`} at index ${output.bad}; every value must be a number`,
    );
  }
  const values = output.values;
  if (values.length !== output.length)
    fail(kind, source, 'output', `${name}: the runtime reported ${output.length} values but sent ${values.length}`);
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i]))
      fail(kind, source, 'output', `${name} returned ${values[i]} at index ${i}; every value must be finite`);
  }
  return Float64Array.from(values);
}

/** Throws when the call changed an input array (the sandbox gave it copies: the trainer's are safe either way). */
export function checkUnchanged(
  kind: CodeKind,
  source: string,
  input: SandboxInput,
  after: Record<string, InputArray> | undefined,
): void {
  const name = `${CODE_FUNCTION[kind]}(batch)`;
  for (const key of input.typedKeys) {
    const before = input.typed[key];
    const now = after?.[key];
    if (!now || now.length !== before.length)
      fail(kind, source, 'mutation', `${name}: batch.${key} came back with another length`);
    for (let i = 0; i < before.length; i++) {
      // Object.is: a NaN written over a NaN is no change, a -0 over a 0 is one.
      if (!Object.is(before[i], now[i])) {
        fail(
          kind,
          source,
          'mutation',
          `${name} changed its input batch.${key}[${i}] from ${before[i]} to ${now[i]}; the batch is read-only: work on a copy (e.g. Float64Array.from(batch.${key}))`,
        );
      }
    }
  }
}
