// The knob table is well formed: every entry documented, defaults inside their own ranges.

import { describe, expect, it } from 'vitest';
import { TASK_NAMES } from '../tasks/registry';
import { parseKnobValue } from './config';
import { findKnob, isKnobActive, knobsFor, SECTIONS, STATIC_KNOBS, taskKnobs, type KnobSpec } from './knobs';

const ALL: KnobSpec[] = [...(STATIC_KNOBS as readonly KnobSpec[]), ...TASK_NAMES.flatMap((t) => taskKnobs(t))];

describe('knob table', () => {
  it('has unique, URL-friendly keys', () => {
    const keys = (STATIC_KNOBS as readonly KnobSpec[]).map((k) => k.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const t of TASK_NAMES) {
      const all = knobsFor(t).map((k) => k.key);
      expect(new Set(all).size).toBe(all.length);
    }
    for (const k of ALL) expect(k.key).toMatch(/^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)?$/);
  });

  it.each(ALL.map((k) => [k.key, k] as const))('%s is documented and its default is allowed', (_, k) => {
    expect(k.doc.length).toBeGreaterThan(10);
    expect(k.label.length).toBeGreaterThan(0);
    expect(SECTIONS.map((s) => s.id)).toContain(k.section);
    expect(parseKnobValue(k, k.default)).toBe(k.default);
    if (k.kind === 'int' || k.kind === 'float') {
      expect(k.min).toBeTypeOf('number');
      expect(k.max).toBeTypeOf('number');
      expect(k.min!).toBeLessThan(k.max!);
    }
    if (k.kind === 'enum') expect(k.values!.length).toBeGreaterThan(0);
    if (k.log) expect(k.min!).toBeGreaterThan(0);
  });

  it('conditions refer to existing knobs and allowed values', () => {
    for (const k of ALL) {
      for (const [key, cond] of Object.entries(k.when ?? {})) {
        const target = findKnob(key);
        expect(target, `${k.key} when ${key}`).toBeDefined();
        const values = Array.isArray(cond) ? cond : (cond as { not: unknown[] }).not;
        for (const v of values) expect(parseKnobValue(target!, v)).toBe(v);
      }
    }
  });

  it('isKnobActive follows the conditions', () => {
    const passK = findKnob('passK')!;
    const klKind = findKnob('klKind')!;
    expect(isKnobActive(passK, { estimator: 'passk' })).toBe(true);
    expect(isKnobActive(passK, { estimator: 'grpo' })).toBe(false);
    expect(isKnobActive(klKind, { klBeta: 0 })).toBe(false);
    expect(isKnobActive(klKind, { klBeta: 0.5 })).toBe(true);
    expect(isKnobActive(findKnob('lr')!, {})).toBe(true);
  });

  it('generates task knobs from the task spec tables', () => {
    expect(findKnob('task.length', 'groupmul')).toMatchObject({
      kind: 'int',
      min: 1,
      max: 16,
      default: 8,
      section: 'task',
    });
    expect(findKnob('task.group', 'groupmul')).toMatchObject({ kind: 'enum', default: 'S3' });
    expect(findKnob('task.alphabet', 'groupmul')).toBeUndefined();
    expect(findKnob('task.alphabet', 'sort')).toBeDefined();
    const order = knobsFor('sort').map((k) => k.key);
    expect(order.slice(order.indexOf('task'), order.indexOf('task') + 4)).toEqual([
      'task',
      'task.length',
      'task.alphabet',
      'task.reward',
    ]);
  });
});
