// A sweep: one knob over several values on the same seed, run one after another.

import { ConfigError, findKnob, mergeConfig, type RunConfig } from '../config';

export interface SweepPlan {
  configs: RunConfig[];
  /** Values that were refused, with the knob's message. */
  errors: string[];
}

/** Splits "0.2, 0.28 0.35" into values (commas and/or spaces). */
export function parseSweepValues(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}

/**
 * The configs of a sweep: `base` with `knob` set to each value, and `steps` steps each (a
 * sweep needs runs that end). Values are parsed like any control's input; bad ones are reported.
 */
export function planSweep(base: RunConfig, knob: string, values: readonly string[], steps: number): SweepPlan {
  const errors: string[] = [];
  const configs: RunConfig[] = [];
  if (!findKnob(knob, base.task)) return { configs, errors: [`unknown knob "${knob}"`] };
  if (!Number.isInteger(steps) || steps < 1) return { configs, errors: ['steps per run must be a positive integer'] };
  for (const v of values) {
    try {
      configs.push(mergeConfig(base, { [knob]: v, steps }));
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      errors.push(e.message);
    }
  }
  if (values.length === 0) errors.push('give at least one value');
  return { configs, errors };
}
