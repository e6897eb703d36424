// Reading instances from untrusted JSON (CLI input): each helper names the field it rejects.

import { TaskInstanceError } from './types';

export function asObject(raw: unknown, field: string): Record<string, unknown> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new TaskInstanceError(field, `${field} must be an object`);
  }
  return raw as Record<string, unknown>;
}

export function asIntArray(raw: unknown, field: string, lo: number, hi: number, length?: number): number[] {
  if (!Array.isArray(raw)) throw new TaskInstanceError(field, `${field} must be an array of integers`);
  if (length !== undefined && raw.length !== length) {
    throw new TaskInstanceError(field, `${field} must have length ${length}, got ${raw.length}`);
  }
  return raw.map((v, i) => asInt(v, `${field}[${i}]`, lo, hi));
}

/** An integer in [lo, hi). */
export function asInt(raw: unknown, field: string, lo: number, hi: number): number {
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < lo || raw >= hi) {
    throw new TaskInstanceError(field, `${field} must be an integer in [${lo}, ${hi}), got ${JSON.stringify(raw)}`);
  }
  return raw;
}

/** Checks `instance.task` and returns the raw params object (possibly empty). */
export function instanceHeader(raw: unknown, taskName: string): { obj: Record<string, unknown>; params: unknown } {
  const obj = asObject(raw, 'instance');
  if (obj.task !== taskName) {
    throw new TaskInstanceError(
      'instance.task',
      `instance.task must be "${taskName}", got ${JSON.stringify(obj.task)}`,
    );
  }
  return { obj, params: obj.params ?? {} };
}
