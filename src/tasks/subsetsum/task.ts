// subsetsum: choose distinct indices whose numbers sum to the target. Many answers are right,
// which makes it the task for pass@k and diversity.
//
// Prompt: BOS, the numbers in decimal digits separated by ",", "=", the target, SEP. Numbers are
// zero-padded to the width of maxValue and the target to the width of count·maxValue, so the
// prompt length depends only on the parameters. Completion: index tokens i0.., then EOS.

import type { Rng } from '../../core/random';
import { defineTask, type InstanceBody } from '../defineTask';
import { intParam } from '../params';
import { asInt, asIntArray } from '../instanceJson';
import { completionContent, isIdIn, withSpecials } from '../tokens';
import {
  BOS,
  EOS,
  NUM_SPECIAL,
  SEP,
  TaskInstanceError,
  type ParamSpec,
  type SequenceShape,
  type Task,
  type TaskInstance,
  type VerifyResult,
  type TaskDisplay,
} from '../types';

export type SubsetSumParams = {
  count: number;
  maxValue: number;
};

export const SUBSETSUM_PARAMS: readonly ParamSpec[] = [
  intParam('count', 6, [2, 12], 'How many numbers the prompt lists.'),
  intParam(
    'maxValue',
    20,
    [2, 99],
    'Numbers are drawn uniformly from 1..maxValue; the target is the sum of a planted random non-empty subset.',
  ),
];

// Task tokens: digits 0-9, ",", "=", then one index token per number.
const DIGIT0 = NUM_SPECIAL;
const COMMA = NUM_SPECIAL + 10;
const EQUALS = NUM_SPECIAL + 11;
const INDEX0 = NUM_SPECIAL + 12;

export interface SubsetSumInstance extends TaskInstance {
  task: 'subsetsum';
  params: SubsetSumParams;
  numbers: number[];
  target: number;
  /** One solution (the first in subset-bitmask order), ascending indices. */
  solution: number[];
  /** How many subsets sum to the target. */
  solutions: number;
}

const vocab = (p: SubsetSumParams): string[] =>
  withSpecials([...'0123456789', ',', '=', ...Array.from({ length: p.count }, (_, i) => `i${i}`)]);

const numberWidth = (p: SubsetSumParams): number => String(p.maxValue).length;
const targetWidth = (p: SubsetSumParams): number => String(p.count * p.maxValue).length;

function shape(p: SubsetSumParams): SequenceShape {
  return {
    promptLength: 1 + p.count * numberWidth(p) + (p.count - 1) + 1 + targetWidth(p) + 1,
    completionLength: p.count + 1,
  };
}

const digits = (value: number, width: number): number[] =>
  [...String(value).padStart(width, '0')].map((d) => DIGIT0 + Number(d));

/** Every subset (as a bitmask) whose numbers sum to the target. */
function solvingMasks(numbers: readonly number[], target: number): number[] {
  const out: number[] = [];
  for (let mask = 1; mask < 1 << numbers.length; mask++) {
    let sum = 0;
    for (let i = 0; i < numbers.length; i++) if (mask & (1 << i)) sum += numbers[i];
    if (sum === target) out.push(mask);
  }
  return out;
}

const maskIndices = (mask: number, n: number): number[] =>
  Array.from({ length: n }, (_, i) => i).filter((i) => mask & (1 << i));

/** The core data: the numbers and the target (the JSON's `numbers` and `target`). */
type Problem = { numbers: number[]; target: number };

/** The prompt, one solution and the count of solutions; a target no subset reaches is an error. */
function build(params: SubsetSumParams, { numbers, target }: Problem): InstanceBody<SubsetSumInstance> {
  const masks = solvingMasks(numbers, target);
  if (masks.length === 0) {
    throw new TaskInstanceError('instance.target', `instance.target: no subset of instance.numbers sums to ${target}`);
  }
  const solution = maskIndices(masks[0], numbers.length);
  const promptTokens = [BOS];
  numbers.forEach((x, i) => {
    if (i > 0) promptTokens.push(COMMA);
    promptTokens.push(...digits(x, numberWidth(params)));
  });
  promptTokens.push(EQUALS, ...digits(target, targetWidth(params)), SEP);
  return {
    promptTokens,
    answerTokens: [...solution.map((i) => INDEX0 + i), EOS],
    numbers: [...numbers],
    target,
    solution,
    solutions: masks.length,
  };
}

function draw(rng: Rng, params: SubsetSumParams): Problem {
  const numbers = Array.from({ length: params.count }, () => 1 + rng.int(params.maxValue));
  // Planted subset: each index with probability 1/2, redrawn while empty.
  let planted: number[] = [];
  while (planted.length === 0) planted = numbers.map((_, i) => i).filter(() => rng.next() < 0.5);
  return { numbers, target: planted.reduce((s, i) => s + numbers[i], 0) };
}

function read(json: Record<string, unknown>, params: SubsetSumParams): Problem {
  return {
    numbers: asIntArray(json.numbers, 'instance.numbers', 1, params.maxValue + 1, params.count),
    target: asInt(json.target, 'instance.target', 1, params.count * params.maxValue + 1),
  };
}

type Choice = { kind: 'ok'; indices: number[]; sum: number } | { kind: 'empty' | 'badtoken' | 'duplicate' };

function choose(instance: SubsetSumInstance, completion: readonly number[]): Choice {
  const content = completionContent(completion, instance.completionLength);
  const n = instance.numbers.length;
  if (content.length === 0) return { kind: 'empty' };
  if (content.some((t) => !isIdIn(t, INDEX0, INDEX0 + n))) return { kind: 'badtoken' };
  const indices = content.map((t) => t - INDEX0);
  if (new Set(indices).size !== indices.length) return { kind: 'duplicate' };
  const sum = indices.reduce((s, i) => s + instance.numbers[i], 0);
  return { kind: 'ok', indices: indices.sort((a, b) => a - b), sum };
}

function verify(instance: SubsetSumInstance, completion: readonly number[]): VerifyResult {
  const c = choose(instance, completion);
  const correct = c.kind === 'ok' && c.sum === instance.target;
  return {
    reward: correct ? 1 : 0,
    correct,
    details:
      c.kind === 'ok'
        ? { chosen: c.indices, sum: c.sum, target: instance.target }
        : { problem: c.kind, target: instance.target },
  };
}

function groupMetrics(
  instance: SubsetSumInstance,
  completions: readonly (readonly number[])[],
): Record<string, number> {
  const distinct = new Set<string>();
  for (const comp of completions) {
    const c = choose(instance, Array.isArray(comp) ? comp : []);
    if (c.kind === 'ok' && c.sum === instance.target) distinct.add(c.indices.join(','));
  }
  return {
    distinct_correct_subsets: distinct.size,
    solution_coverage: distinct.size / Math.max(1, instance.solutions),
  };
}

/** The chosen indices, sorted, e.g. "0,2,5"; or "empty" / "badtoken" / "duplicate". */
function signature(instance: SubsetSumInstance, completion: readonly number[]): string {
  const c = choose(instance, completion);
  return c.kind === 'ok' ? c.indices.join(',') : c.kind;
}

/** "sum:<s>" for a wrong sum, or "empty" / "badtoken" / "duplicate". */
function errorSignature(instance: SubsetSumInstance, completion: readonly number[]): string {
  const c = choose(instance, completion);
  if (c.kind !== 'ok') return c.kind;
  return c.sum === instance.target ? 'correct' : `sum:${c.sum}`;
}

/** "sum 20", or why there is no sum. */
function sumNote(inst: SubsetSumInstance, vocab: readonly string[], completion: readonly number[]): string {
  const end = completion.indexOf(EOS);
  const picked = (end < 0 ? completion : completion.slice(0, end)).map((t) => /^i(\d+)$/.exec(vocab[t] ?? ''));
  if (picked.length === 0) return 'picked nothing';
  if (picked.some((m) => m === null)) return 'wrote something that is not a number';
  const indices = picked.map((m) => Number(m?.[1]));
  if (new Set(indices).size !== indices.length) return 'used a number twice';
  return `sum ${indices.reduce((s, i) => s + (inst.numbers[i] ?? 0), 0)}`;
}

const subsetsumDisplay: TaskDisplay<SubsetSumParams, SubsetSumInstance> = {
  // Index tokens read as the numbers they pick.
  tokenWords: (inst) => (_token, raw) => {
    const m = /^i(\d+)$/.exec(raw);
    const value = m ? inst.numbers[Number(m[1])] : undefined;
    return value === undefined ? raw : String(value);
  },
  promptWords(inst) {
    const others = inst.solutions > 1 ? ` (${inst.solutions} ways)` : '';
    return {
      prompt: inst.numbers.join(', '),
      question: `Pick numbers that add up to ${inst.target}.`,
      answer: `${inst.solution.map((i) => inst.numbers[i]).join(' + ')}${others}`,
    };
  },
  answerNote: (inst, vocab, completion) => ({ text: sumNote(inst, vocab, completion), at: null }),
};

/** The split's key: the numbers and the target. */
const splitKeys = (inst: SubsetSumInstance): Record<string, string> => ({
  instance: `${inst.numbers.join(',')}=${inst.target}`,
});

export const subsetsumTask: Task<SubsetSumParams, SubsetSumInstance> = defineTask({
  name: 'subsetsum',
  summary: 'Subset sum: list distinct indices whose numbers add up to the target; many answers are right.',
  params: SUBSETSUM_PARAMS,
  display: subsetsumDisplay,
  vocab,
  shape,
  instances: { draw, read, build },
  verify,
  groupMetrics,
  signature,
  errorSignature,
  splitKeys,
});
