// sort: write the k prompt letters in alphabetical order. The sanity task: fast to learn.
//
// Prompt: BOS x1 … xk SEP. Completion: the sorted letters, then EOS (sampled by the policy).
// The verifier can be made to check less than the truth (verifier = ordered: any k letters in
// order pass), the reward-hacking lesson's hole; the true pass is then still logged (true_pass).

import { defineTask, type InstanceBody } from '../defineTask';
import { enumParam, intParam } from '../params';
import { asIntArray } from '../instanceJson';
import { completionContent, isIdIn, withSpecials } from '../tokens';
import {
  BOS,
  EOS,
  NUM_SPECIAL,
  SEP,
  type MetricSpec,
  type ParamSpec,
  type Task,
  type TaskInstance,
  type VerifyResult,
  type TaskDisplay,
} from '../types';

export type SortParams = {
  length: number;
  alphabet: number;
  reward: 'exact' | 'partial';
  verifier: 'exact' | 'ordered';
};

export const SORT_PARAMS: readonly ParamSpec[] = [
  intParam('length', 5, [2, 12], 'Number k of letters to sort.'),
  intParam(
    'alphabet',
    8,
    [2, 26],
    'Alphabet size m: letters a.. are drawn uniformly (with repetition) from the first m.',
  ),
  enumParam(
    'reward',
    ['exact', 'partial'],
    'exact: 1 iff the completion is the sorted letters then EOS; partial: fraction of the k+1 positions (letters and the EOS) that are right.',
  ),
  enumParam(
    'verifier',
    ['exact', 'ordered'],
    'What the verifier calls right. exact: the prompt\'s letters, sorted; ordered: any k letters in non-decreasing order ("aaaaa" passes for every prompt), a verifier with a hole that a policy can learn to exploit (the reward-hacking lesson). Runs log the exact pass beside it either way (task/true_pass).',
  ),
];

export const SORT_METRICS: Readonly<Record<string, MetricSpec>> = {
  true_pass: {
    name: 'true pass',
    unit: '0–1',
    doc: "Share of the answers that are the prompt's letters sorted, whatever the verifier says: pass@1 as an exact verifier counts it. It parts from pass@1 only when task.verifier is ordered.",
  },
};

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

export interface SortInstance extends TaskInstance {
  task: 'sort';
  params: SortParams;
  /** Letter indices (0 = a) of the prompt. */
  input: number[];
  /** The same letters sorted. */
  sorted: number[];
}

/** The prompt and the right answer from the letters to sort. */
function build(_params: SortParams, input: number[]): InstanceBody<SortInstance> {
  const sorted = [...input].sort((a, b) => a - b);
  return {
    promptTokens: [BOS, ...input.map((x) => NUM_SPECIAL + x), SEP],
    answerTokens: [...sorted.map((x) => NUM_SPECIAL + x), EOS],
    input: [...input],
    sorted,
  };
}

const isLetter = (t: number, m: number): boolean => isIdIn(t, NUM_SPECIAL, NUM_SPECIAL + m);

/**
 * Which of the first k written tokens the verifier counts right: the sorted letter there (exact),
 * or a letter no smaller than the letter before it (ordered: in order, whatever the prompt).
 */
function rightAt(instance: SortInstance, content: readonly number[]): boolean[] {
  const m = instance.params.alphabet;
  return instance.sorted.map((x, i) => {
    const t = content[i];
    if (instance.params.verifier === 'exact') return t === NUM_SPECIAL + x;
    return isLetter(t, m) && (i === 0 || (isLetter(content[i - 1], m) && content[i - 1] <= t));
  });
}

/** Whether the completion is the sorted letters then EOS, what verifier = exact checks. */
function exactlyRight(instance: SortInstance, completion: readonly number[]): boolean {
  const content = completionContent(completion, instance.completionLength);
  return content.length === instance.sorted.length && instance.sorted.every((x, i) => content[i] === NUM_SPECIAL + x);
}

function verify(instance: SortInstance, completion: readonly number[]): VerifyResult {
  const content = completionContent(completion, instance.completionLength);
  const k = instance.sorted.length;
  const rightLetters = rightAt(instance, content).filter(Boolean).length;
  const rightLength = content.length === k;
  const correct = rightLength && rightLetters === k;
  const reward =
    instance.params.reward === 'partial' ? (rightLetters + (rightLength ? 1 : 0)) / (k + 1) : correct ? 1 : 0;
  const details = { rightLetters, length: content.length, expectedLength: k };
  // With the hole open, the inspector also says what an exact verifier would have said.
  if (instance.params.verifier === 'exact') return { reward, correct, details };
  return { reward, correct, details: { ...details, exact: exactlyRight(instance, completion) } };
}

/** true_pass: the share of the group's answers that are exactly right (the verifier may say otherwise). */
function groupMetrics(instance: SortInstance, completions: readonly (readonly number[])[]): Record<string, number> {
  if (completions.length === 0) return {};
  return { true_pass: completions.filter((c) => exactlyRight(instance, c)).length / completions.length };
}

/** The written letters as one word, e.g. "abbd"; "?" marks a token that is not a letter. */
function signature(instance: SortInstance, completion: readonly number[]): string {
  const m = instance.params.alphabet;
  return completionContent(completion, instance.completionLength)
    .map((t) => (isLetter(t, m) ? LETTERS[t - NUM_SPECIAL] : '?'))
    .join('');
}

/** "badtoken", "length:<n>", "not-permutation" (wrong letters) or "not-sorted" (right letters, wrong order). */
function errorSignature(instance: SortInstance, completion: readonly number[]): string {
  const content = completionContent(completion, instance.completionLength);
  const m = instance.params.alphabet;
  if (content.some((t) => !isLetter(t, m))) return 'badtoken';
  if (content.length !== instance.sorted.length) return `length:${content.length}`;
  const letters = content.map((t) => t - NUM_SPECIAL);
  const same = (a: number[], b: number[]): boolean => a.every((x, i) => x === b[i]);
  if (same(letters, instance.sorted)) return 'correct';
  return same(
    [...letters].sort((a, b) => a - b),
    instance.sorted,
  )
    ? 'not-sorted'
    : 'not-permutation';
}

const sortDisplay: TaskDisplay<SortParams, SortInstance> = {
  promptWords: (inst) => ({
    prompt: inst.input.map((x) => LETTERS[x]).join(' '),
    question: 'Sort the letters.',
    answer: inst.sorted.map((x) => LETTERS[x]).join(' '),
  }),
  // The true pass is drawn against the verifier's by the verifier chart, not as a task chart.
  hasTaskChart: () => false,
  proxyVerifier: (p) => p.verifier !== 'exact',
};

/** The split's key: the letters to sort, in their order. */
const splitKeys = (inst: SortInstance): Record<string, string> => ({ instance: inst.input.join(',') });

export const sortTask: Task<SortParams, SortInstance> = defineTask({
  name: 'sort',
  summary: 'Sort k letters from an alphabet of m; exact-match or per-position reward. The sanity task.',
  params: SORT_PARAMS,
  display: sortDisplay,
  metrics: SORT_METRICS,
  vocab: (p) => withSpecials([...LETTERS.slice(0, p.alphabet)]),
  shape: (p) => ({ promptLength: p.length + 2, completionLength: p.length + 1 }),
  // The core data: the letters to sort, in their order (the JSON's `input`).
  instances: {
    draw: (rng, p) => Array.from({ length: p.length }, () => rng.int(p.alphabet)),
    read: (json, p) => asIntArray(json.input, 'instance.input', 0, p.alphabet, p.length),
    build,
  },
  verify,
  groupMetrics,
  signature,
  errorSignature,
  splitKeys,
});
