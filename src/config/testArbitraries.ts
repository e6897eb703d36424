// fast-check arbitraries of valid run configs (test-only; the library never imports this).

import fc from 'fast-check';
import { paramsArbitrary } from '../tasks/testArbitraries';
import { getTask, TASK_NAMES, type TaskName } from '../tasks/registry';
import { tryValidateConfig, type RunConfig } from './config';
import { STATIC_KNOBS, type KnobSpec, type KnobValue } from './knobs';

/**
 * Any key a user may type for a knob (a --set key, a URL parameter): every static knob, the task
 * parameters, names that are no knob (empty, blank, the prototype's, unknown), and `more`.
 */
export function knobKeyArb(...more: string[]): fc.Arbitrary<string> {
  const taskParams = ['task.length', 'task.group', 'task.size', 'task.alphabet'];
  const noKnob = ['', ' ', '__proto__', 'constructor', 'nope'];
  return fc.constantFrom(...STATIC_KNOBS.map((k) => k.key), ...taskParams, ...noKnob, ...more);
}

/** Any value a knob accepts on its own (range/enum), ends of the range included often. */
export function knobValueArb(k: KnobSpec): fc.Arbitrary<KnobValue> {
  switch (k.kind) {
    case 'int':
      return fc.oneof(fc.integer({ min: k.min!, max: k.max! }), fc.constantFrom(k.min!, k.max!, k.default as number));
    case 'float':
      return fc.oneof(
        fc.double({ min: k.min!, max: k.max!, noNaN: true, noDefaultInfinity: true }),
        fc.constantFrom(k.min!, k.max!, k.default as number),
      );
    case 'enum':
      return fc.constantFrom(...k.values!);
    case 'bool':
      return fc.boolean();
    case 'code':
      // Any text up to the limit is a valid value (it is compiled only when a run uses it).
      return fc.oneof(
        fc.constant(k.default as string),
        fc.string({ maxLength: 80 }),
        fc.string({ unit: 'grapheme', maxLength: 40 }),
      );
  }
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** Bends a random assignment toward the cross-field rules. */
function repair(raw: Record<string, KnobValue>, task: TaskName, pick: number): Record<string, KnobValue> {
  const c = { ...raw };
  const nHead = c['model.nHead'] as number;
  const step = (nHead * 4) / gcd(nHead, 4);
  c['model.nEmbd'] = step * Math.max(1, Math.floor((c['model.nEmbd'] as number) / step));
  c.groupSize = Math.max(2, c.groupSize as number);
  const n = (c.batchPrompts as number) * (c.groupSize as number);
  c.passK = Math.min(c.passK as number, c.groupSize as number);
  let mb = Math.min(c.minibatches as number, n);
  while (n % mb !== 0) mb--;
  c.minibatches = mb;
  c.mappPool = Math.max(c.mappPool as number, c.batchPrompts as number);
  if ((c.dualClip as number) <= 1) c.dualClip = 0;
  if (c.rewardSource === 'consensus' && (c.dynamicSampling || c.estimator === 'mapp')) c.rewardSource = 'verifier';
  const t = getTask(task);
  if (!t.baseCompletion) c.sftData = 'answers';
  const params = Object.fromEntries(t.params.map((p) => [p.name, c[`task.${p.name}`]]));
  const completion = t.shape(params as never).completionLength;
  c.overlongBuffer = Math.min(c.overlongBuffer as number, completion - 1);
  if (c.refSync === 'curriculum') c.curriculum = 'pass-rate';
  if (c.curriculum !== 'off') {
    const ints = t.params.filter((p) => p.kind === 'int');
    const spec = ints[pick % ints.length];
    const end = c[`task.${spec.name}`] as number;
    c.curriculumParam = spec.name;
    c.curriculumStart = Math.min(end, (spec.min ?? 0) + (pick % (end - (spec.min ?? 0) + 1)));
  }
  return c;
}

/** A random valid RunConfig (any task, any knob values the rules allow). */
export const runConfigArb: fc.Arbitrary<RunConfig> = fc
  .tuple(fc.constantFrom(...TASK_NAMES), fc.nat(1000))
  .chain(([task, pick]) =>
    fc
      .tuple(
        fc.record(
          Object.fromEntries(
            (STATIC_KNOBS as readonly KnobSpec[]).filter((k) => k.key !== 'task').map((k) => [k.key, knobValueArb(k)]),
          ) as Record<string, fc.Arbitrary<KnobValue>>,
        ),
        paramsArbitrary(task, getTask(task)),
      )
      .map(([knobs, params]) => {
        const raw: Record<string, KnobValue> = { ...knobs, task };
        for (const [k, v] of Object.entries(params)) raw[`task.${k}`] = v;
        let fixed = repair(raw, task, pick);
        let r = tryValidateConfig(fixed);
        if (!r.ok && fixed.curriculum !== 'off') {
          // e.g. a curriculum level that breaks a task constraint (scratch > length): drop it.
          fixed = { ...fixed, curriculum: 'off', refSync: fixed.refSync === 'curriculum' ? 'none' : fixed.refSync };
          r = tryValidateConfig(fixed);
        }
        if (!r.ok) throw new Error(`arbitrary produced an invalid config: ${r.error.message}`);
        return r.config;
      }),
  );
