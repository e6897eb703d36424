// The train / held-out split: a fixed partition of every task's instance space.
//
// Held-out instances used to be fresh draws of the same generator from another random stream,
// so nothing kept them out of training: 254 of 256 held-out 4×4 mazes were among a run's
// training draws. Now each instance has one or more canonical keys (the task's `splitKeys`:
// what the instance *is*, not how its prompt is written), and a key whose hash falls in the
// held-out share puts the instance in the held-out part. Training, the warm start and the
// curriculum's check draw only from the train part (by rejection: a held-out draw is thrown
// away and the stream moves on); `rlvr eval`, the page's held-out pass@1 and the ablation
// statistics draw only from the held-out part. The partition is the same for every seed, run
// and machine: it depends on nothing but the keys.

import type { Rng } from '../core/random';
import { hashU32 } from '../core/random';
import { TaskParamError, type Task, type TaskInstance, type TaskParams } from './types';

export type Split = 'train' | 'heldout';

export const SPLITS: readonly Split[] = ['train', 'heldout'];

/**
 * The share of each key's values held out, in thousandths. One in ten: enough held-out
 * instances for a 256-prompt eval on every task at the sizes the lessons use, while training
 * loses little of its space. A maze has two keys (its grid, and the grid with S and G), so
 * about 19% of maze instances are held out: those on the 10% of grids never trained on, and
 * 10% of the start/goal pairs on the others.
 */
export const HELD_OUT_PER_MILLE = 100;

/** Draws tried for one instance of a split before the split is declared empty at these parameters. */
export const MAX_SPLIT_TRIES = 4000;

/** A split with no instance at these parameters (the instance space is too small to hold one out). */
export class SplitEmptyError extends TaskParamError {
  constructor(
    readonly split: Split,
    task: string,
    params: TaskParams,
  ) {
    super(
      'split',
      `no ${split === 'heldout' ? 'held-out' : 'training'} ${task} instance in ${MAX_SPLIT_TRIES} draws at ${JSON.stringify(params)}: ` +
        `the instance space at these parameters is too small for a train/held-out split`,
    );
    this.name = 'SplitEmptyError';
  }
}

/** FNV-1a over the UTF-16 code units of a string, then lowbias32 to spread the low bits. */
export function hashKey(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return hashU32(h);
}

/** A task's canonical keys of an instance: its own `splitKeys`, else the prompt and the fixed completion tokens. */
export function splitKeys(task: Task, instance: TaskInstance): Record<string, string> {
  if (task.splitKeys) return task.splitKeys(instance);
  const fixed = instance.fixed.map((t) => (t === null ? '_' : String(t))).join(',');
  return { instance: `${instance.promptTokens.join(',')}|${fixed}` };
}

/** Whether one key's value is in the held-out share (the key's name salts the hash, so the keys fall independently). */
export function keyHeldOut(task: string, name: string, value: string): boolean {
  return hashKey(`${task}/${name}/${value}`) % 1000 < HELD_OUT_PER_MILLE;
}

/** The names of the keys that hold this instance out; empty for a training instance. */
export function heldOutBy(task: Task, instance: TaskInstance): string[] {
  const keys = splitKeys(task, instance);
  return Object.keys(keys).filter((name) => keyHeldOut(task.name, name, keys[name]));
}

/** Which part of the split an instance is in. */
export function splitOf(task: Task, instance: TaskInstance): Split {
  return heldOutBy(task, instance).length > 0 ? 'heldout' : 'train';
}

/**
 * One instance of a split: draws from the task's generator until one falls in the split (the
 * split's distribution is the generator's restricted to it). Throws SplitEmptyError after
 * MAX_SPLIT_TRIES draws without one.
 */
export function sampleSplit<P extends TaskParams, I extends TaskInstance>(
  task: Task<P, I>,
  rng: Rng,
  params: P,
  split: Split,
): I {
  for (let i = 0; i < MAX_SPLIT_TRIES; i++) {
    const instance = task.sample(rng, params);
    if (splitOf(task as unknown as Task, instance) === split) return instance;
  }
  throw new SplitEmptyError(split, task.name, params);
}

/** How a set of draws of one split looks: how many, how many distinct, and (held-out) by which key. */
export interface SplitSummary {
  split: Split;
  /** Instances drawn. */
  n: number;
  /** Distinct instances among them (by all their keys). */
  distinct: number;
  /** Held-out instances by the keys that hold them out (a maze held out by its grid and its pair counts under both). */
  heldOutBy: Record<string, number>;
}

export function summarizeSplit(task: Task, split: Split, instances: readonly TaskInstance[]): SplitSummary {
  const seen = new Set<string>();
  const by: Record<string, number> = {};
  for (const inst of instances) {
    seen.add(JSON.stringify(splitKeys(task, inst)));
    for (const name of heldOutBy(task, inst)) by[name] = (by[name] ?? 0) + 1;
  }
  return { split, n: instances.length, distinct: seen.size, heldOutBy: by };
}

/**
 * Fewer distinct held-out instances than this among an eval's prompts, and the eval says the
 * split is too small to measure generalisation (the same few instances are drawn again and again).
 */
export const MIN_DISTINCT_HELD_OUT = 16;

/** Greedy pass@1 over a subset of an eval's prompts. */
export interface SplitPart {
  prompts: number;
  'pass@1': number;
}

/** What `rlvr eval` says about the prompts it scored: their split, how many distinct, pass@1 by the key that holds them out. */
export interface SplitReport {
  split: Split;
  prompts: number;
  distinct: number;
  /**
   * Held-out prompts grouped by the first of the task's keys that holds them out, with greedy
   * pass@1 on each group: a maze's 'grid' (a grid never trained on) and 'instance' (a training
   * grid with a start and goal never trained on).
   */
  byKey: Record<string, SplitPart>;
  /** Set when the figure does not measure generalisation: no held-out part, or too few distinct instances in it. */
  warning?: string;
}

/** The split report of an eval: `correct[b]` is 1 where the greedy answer to instances[b] is right. */
export function splitReport(
  task: Task,
  split: Split,
  instances: readonly TaskInstance[],
  correct: ArrayLike<number>,
): SplitReport {
  const { distinct } = summarizeSplit(task, split, instances);
  const byKey: Record<string, SplitPart> = {};
  instances.forEach((inst, b) => {
    const first = heldOutBy(task, inst)[0];
    if (first === undefined) return;
    const part = (byKey[first] ??= { prompts: 0, 'pass@1': 0 });
    part.prompts++;
    part['pass@1'] += correct[b];
  });
  for (const part of Object.values(byKey)) part['pass@1'] /= part.prompts;
  const report: SplitReport = { split, prompts: instances.length, distinct, byKey };
  const warning = splitWarning(split, distinct, instances.length);
  if (warning !== undefined) report.warning = warning;
  return report;
}

/**
 * Why an eval's prompts cannot measure generalisation, or undefined when they can: they are
 * training instances (no held-out part), or too few of them are distinct.
 */
export function splitWarning(split: Split, distinct: number, prompts: number): string | undefined {
  if (split === 'train')
    return 'no held-out instance at these parameters (the instance space is too small to split): these prompts are training instances';
  if (distinct < Math.min(MIN_DISTINCT_HELD_OUT, prompts))
    return `only ${distinct} distinct held-out instances among ${prompts} prompts: the instance space at these parameters is too small for the figure to measure generalisation`;
  return undefined;
}

/** The report in words, a line or two. */
export function splitLines(r: SplitReport): string[] {
  const parts = Object.entries(r.byKey).map(([key, p]) => `${key} ${p.prompts} (pass@1 ${p['pass@1'].toFixed(3)})`);
  const lines = [
    `${r.split === 'heldout' ? 'held-out' : 'training'} prompts: ${r.prompts}, ${r.distinct} distinct${parts.length > 1 ? `; held out by ${parts.join(', ')}` : ''}`,
  ];
  if (r.warning) lines.push(`warning: ${r.warning}`);
  return lines;
}
