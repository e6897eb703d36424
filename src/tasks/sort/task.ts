// sort: write the k prompt letters in alphabetical order. The sanity task: fast to learn.
//
// Prompt: BOS x1 … xk SEP. Completion: the sorted letters, then EOS (sampled by the policy).

import type { Rng } from '../../core/random';
import { parseParams } from '../params';
import { asIntArray, asObject, instanceHeader } from '../instanceJson';
import { completionContent, isIdIn, freeCompletionInstance, withSpecials, totalTask } from '../tokens';
import {
  BOS,
  EOS,
  NUM_SPECIAL,
  SEP,
  type ParamSpec,
  type SequenceShape,
  type Task,
  type TaskInstance,
  type VerifyResult,
  type TaskDisplay,
} from '../types';

export type SortParams = {
  length: number;
  alphabet: number;
  reward: 'exact' | 'partial';
};

export const SORT_PARAMS: readonly ParamSpec[] = [
  { name: 'length', kind: 'int', default: 5, min: 2, max: 12, doc: 'Number k of letters to sort.' },
  {
    name: 'alphabet',
    kind: 'int',
    default: 8,
    min: 2,
    max: 26,
    doc: 'Alphabet size m: letters a.. are drawn uniformly (with repetition) from the first m.',
  },
  {
    name: 'reward',
    kind: 'enum',
    default: 'exact',
    values: ['exact', 'partial'],
    doc: 'exact: 1 iff the completion is the sorted letters then EOS; partial: fraction of the k+1 positions (letters and the EOS) that are right.',
  },
];

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

export interface SortInstance extends TaskInstance {
  task: 'sort';
  params: SortParams;
  /** Letter indices (0 = a) of the prompt. */
  input: number[];
  /** The same letters sorted. */
  sorted: number[];
}

const vocab = (p: SortParams): string[] => withSpecials([...LETTERS.slice(0, p.alphabet)]);

const shape = (p: SortParams): SequenceShape => ({ promptLength: p.length + 2, completionLength: p.length + 1 });

function build(params: SortParams, input: number[]): SortInstance {
  const sorted = [...input].sort((a, b) => a - b);
  const promptTokens = [BOS, ...input.map((x) => NUM_SPECIAL + x), SEP];
  const answerTokens = [...sorted.map((x) => NUM_SPECIAL + x), EOS];
  return {
    ...freeCompletionInstance(
      'sort',
      params,
      vocab(params),
      promptTokens,
      answerTokens,
      shape(params).completionLength,
    ),
    input: [...input],
    sorted,
  };
}

function sample(rng: Rng, raw: SortParams): SortInstance {
  const params = parseParams(sortTask, raw);
  return build(
    params,
    Array.from({ length: params.length }, () => rng.int(params.alphabet)),
  );
}

/** Reads `task`, `params` and `input`; the rest is recomputed. */
function fromJSON(raw: unknown): SortInstance {
  const { obj, params: rawParams } = instanceHeader(raw, 'sort');
  const params = parseParams(sortTask, asObject(rawParams, 'instance.params'));
  return build(params, asIntArray(obj.input, 'instance.input', 0, params.alphabet, params.length));
}

function verify(instance: SortInstance, completion: readonly number[]): VerifyResult {
  const content = completionContent(completion, instance.completionLength);
  const expected = instance.sorted.map((x) => NUM_SPECIAL + x);
  const k = expected.length;
  const rightLetters = expected.filter((t, i) => content[i] === t).length;
  const rightLength = content.length === k;
  const correct = rightLength && rightLetters === k;
  const reward =
    instance.params.reward === 'partial' ? (rightLetters + (rightLength ? 1 : 0)) / (k + 1) : correct ? 1 : 0;
  return { reward, correct, details: { rightLetters, length: content.length, expectedLength: k } };
}

/** The written letters as one word, e.g. "abbd"; "?" marks a token that is not a letter. */
function signature(instance: SortInstance, completion: readonly number[]): string {
  const m = instance.params.alphabet;
  return completionContent(completion, instance.completionLength)
    .map((t) => (isIdIn(t, NUM_SPECIAL, NUM_SPECIAL + m) ? LETTERS[t - NUM_SPECIAL] : '?'))
    .join('');
}

/** "badtoken", "length:<n>", "not-permutation" (wrong letters) or "not-sorted" (right letters, wrong order). */
function errorSignature(instance: SortInstance, completion: readonly number[]): string {
  const content = completionContent(completion, instance.completionLength);
  const m = instance.params.alphabet;
  if (content.some((t) => !isIdIn(t, NUM_SPECIAL, NUM_SPECIAL + m))) return 'badtoken';
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
  view: 'rows',
  promptWords: (inst) => ({
    prompt: inst.input.map((x) => LETTERS[x]).join(' '),
    question: 'Sort the letters.',
    answer: inst.sorted.map((x) => LETTERS[x]).join(' '),
  }),
};

/** The split's key: the letters to sort, in their order. */
const splitKeys = (inst: SortInstance): Record<string, string> => ({ instance: inst.input.join(',') });

export const sortTask: Task<SortParams, SortInstance> = totalTask({
  name: 'sort',
  summary: 'Sort k letters from an alphabet of m; exact-match or per-position reward. The sanity task.',
  params: SORT_PARAMS,
  display: sortDisplay,
  vocab,
  shape,
  sample,
  verify,
  signature,
  errorSignature,
  fromJSON,
  splitKeys,
});
