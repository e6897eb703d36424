// What differs between two run configs: the changed knobs, and a short label of them ("lr
// 0.003 → 0.01, seed 1 → 2") for a run continued with new settings or a sweep's runs.

import { findKnob, formatValue, knobsFor, TASK_PREFIX, type KnobSpec, type KnobValue } from './knobs';
import { configEntries } from './knob-values';
import type { RunConfig } from './run-config';

const entries = configEntries;

export interface ConfigChange {
  key: string;
  /** undefined when the key does not exist in `a` (a task parameter of another task). */
  from: KnobValue | undefined;
  to: KnobValue | undefined;
}

/** Knobs whose values differ, in table order (task params of either task after `task`). */
export function configDiff(a: RunConfig, b: RunConfig): ConfigChange[] {
  const keys: string[] = [];
  for (const k of knobsFor(a.task)) keys.push(k.key);
  if (b.task !== a.task) {
    const at = keys.indexOf('task') + 1 + knobsFor(a.task).filter((k) => k.key.startsWith(TASK_PREFIX)).length;
    const extra = knobsFor(b.task)
      .filter((k) => k.key.startsWith(TASK_PREFIX) && !keys.includes(k.key))
      .map((k) => k.key);
    keys.splice(at, 0, ...extra);
  }
  const out: ConfigChange[] = [];
  for (const key of keys) {
    const from = entries(a)[key];
    const to = entries(b)[key];
    if (from !== to) out.push({ key, from, to });
  }
  return out;
}

function showValue(v: KnobValue): string {
  return typeof v === 'boolean' ? (v ? 'on' : 'off') : formatValue(v);
}

/** One change for a label: "ε_high 0.2→0.28"; code is too long to show, so "your estimator edited". */
function showChange(label: string, knob: KnobSpec | undefined, from: KnobValue, to: KnobValue): string {
  return knob?.kind === 'code' ? `${label} edited` : `${label} ${showValue(from)}→${showValue(to)}`;
}

/**
 * A short label of what changed from a to b, for run legends: "ε_high 0.2→0.28, seed 1→2".
 * Uses knob labels; the seed goes last (it is the least interesting difference); task
 * parameters that exist on one side only (after a task change) are left out. "" when equal.
 * With `max`, at most that many changes are listed, then "+n more".
 */
export function diffLabel(a: RunConfig, b: RunConfig, options: { max?: number } = {}): string {
  const changes = configDiff(a, b).filter((c) => c.from !== undefined && c.to !== undefined);
  const seed = changes.filter((c) => c.key === 'seed');
  const ordered = [...changes.filter((c) => c.key !== 'seed'), ...seed];
  const parts = ordered.map((c) => {
    const knob = findKnob(c.key, b.task) ?? findKnob(c.key, a.task);
    return showChange(knob?.label ?? c.key, knob, c.from!, c.to!);
  });
  const max = options.max ?? Infinity;
  if (parts.length > max) return [...parts.slice(0, max), `+${parts.length - max} more`].join(', ');
  return parts.join(', ');
}
