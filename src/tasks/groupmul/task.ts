// groupmul: iterated group multiplication with a scratchpad and a last-token reward.
//
// Block layout:       prompt  BOS x1 … xk SEP        completion  y1 … ys EOS
// Interleaved layout: prompt  BOS x1                 completion  y1 x2 y2 … xk yk EOS
// The closing EOS (and, interleaved, every x) is written by the environment (`fixed`), so the
// policy samples only the y's and is never rewarded or punished for formatting.

import type { Rng } from '../../core/random';
import { foldLeft, getGroup, prefixProducts, suffixProducts, type Magma } from './groups';
import {
  GROUPMUL_PARAMS,
  policyPositions,
  scratchLength,
  targetPrefixLength,
  type GroupMulInstance,
  type GroupMulParams,
} from './layout';
import { GROUPMUL_METRICS, groupmulDisplay } from './display';
import { groupmulBreaks } from './breaks';
import { defineTask, type InstanceBody } from '../defineTask';
import { asIntArray } from '../instanceJson';
import { isIdIn, withSpecials } from '../tokens';
import {
  BOS,
  EOS,
  NUM_SPECIAL,
  SEP,
  TaskInstanceError,
  TaskParamError,
  type SequenceShape,
  type TableProbe,
  type Task,
  type VerifyResult,
} from '../types';

function checkParams(p: GroupMulParams): void {
  if (p.layout === 'block' && p.scratch > p.length) {
    throw new TaskParamError(
      'scratch',
      `groupmul.scratch must be an integer in [0, length] = [0, ${p.length}], got ${p.scratch}`,
    );
  }
  if (p.layout === 'interleaved' && p.scratch !== 0 && p.scratch !== p.length) {
    throw new TaskParamError(
      'scratch',
      `groupmul.scratch must be 0 or equal to length (${p.length}) with layout=interleaved, got ${p.scratch}`,
    );
  }
}

function shape(p: GroupMulParams): SequenceShape {
  return p.layout === 'interleaved'
    ? { promptLength: 2, completionLength: 2 * p.length }
    : { promptLength: p.length + 2, completionLength: scratchLength(p) + 1 };
}

function vocab(p: GroupMulParams): string[] {
  return withSpecials(getGroup(p.group).elementNames);
}

/** The tokens, the template of the interleaved layout and the group's data, from the chain. */
function build(params: GroupMulParams, chain: number[]): InstanceBody<GroupMulInstance> {
  const g = getGroup(params.group);
  const id = (x: number): number => NUM_SPECIAL + x;
  const prefix = prefixProducts(g.table, chain);
  const k = chain.length;
  const s = scratchLength(params);
  let promptTokens: number[];
  let fixed: (number | null)[];
  let answerTokens: number[];
  if (params.layout === 'interleaved') {
    promptTokens = [BOS, id(chain[0])];
    fixed = [];
    answerTokens = [];
    for (let t = 0; t < k; t++) {
      if (t > 0) {
        fixed.push(id(chain[t]));
        answerTokens.push(id(chain[t]));
      }
      fixed.push(null);
      answerTokens.push(id(prefix[t]));
    }
  } else {
    promptTokens = [BOS, ...chain.map(id), SEP];
    fixed = Array.from({ length: s }, () => null);
    answerTokens = Array.from({ length: s }, (_, j) => id(prefix[targetPrefixLength(j, k, s) - 1]));
  }
  fixed.push(EOS);
  answerTokens.push(EOS);
  return {
    promptTokens,
    fixed,
    answerTokens,
    group: g.name,
    elementNames: [...g.elementNames],
    chain: [...chain],
    answer: foldLeft(g.table, chain),
    ...(g.perms ? { perms: g.perms.map((p) => [...p]) } : { table: g.table.map((row) => [...row]) }),
  };
}

function draw(rng: Rng, params: GroupMulParams): number[] {
  const order = getGroup(params.group).order;
  return Array.from({ length: params.length }, () => rng.int(order));
}

/** Reads `chain` (and checks `group` when given); every other field is recomputed. */
function chainFromJSON(json: Record<string, unknown>, params: GroupMulParams): number[] {
  const chain = asIntArray(json.chain, 'instance.chain', 0, getGroup(params.group).order, params.length);
  if (json.group !== undefined && json.group !== params.group) {
    throw new TaskInstanceError(
      'instance.group',
      `instance.group ${JSON.stringify(json.group)} disagrees with instance.params.group "${params.group}"`,
    );
  }
  return chain;
}

/** What a completion wrote at the policy positions: element index, or -1 (not an element / cut by EOS). */
interface Reading {
  g: Magma;
  k: number;
  s: number;
  ys: number[];
  prefixTargets: number[];
  suffixTargets: number[];
}

function read(instance: GroupMulInstance, completion: readonly number[]): Reading {
  const params = instance.params;
  const g = getGroup(params.group);
  const chain = instance.chain;
  const k = chain.length;
  const s = scratchLength(params);
  const positions = policyPositions(params);
  const lo = NUM_SPECIAL;
  const hi = NUM_SPECIAL + g.order;
  const ys: number[] = [];
  let cut = false; // an EOS at or before a y position ends the scratchpad there
  let next = 0;
  for (const pos of positions) {
    for (; next <= pos && !cut; next++) if (completion[next] === EOS) cut = true;
    const t = completion[pos];
    ys.push(!cut && isIdIn(t, lo, hi) ? t - lo : -1);
  }
  const prefix = prefixProducts(g.table, chain);
  const suffix = suffixProducts(g.table, chain);
  const lengths = Array.from({ length: s }, (_, j) => targetPrefixLength(j, k, s));
  return {
    g,
    k,
    s,
    ys,
    prefixTargets: lengths.map((L) => prefix[L - 1]),
    suffixTargets: lengths.map((L) => suffix[L - 1]),
  };
}

const matches = (ys: number[], targets: number[]): number => ys.filter((y, j) => y === targets[j]).length;

function verify(instance: GroupMulInstance, completion: readonly number[]): VerifyResult {
  const r = read(instance, completion);
  const expected = r.prefixTargets[r.s - 1];
  const got = r.ys[r.s - 1];
  const correct = got === expected;
  const prefixMatches = matches(r.ys, r.prefixTargets);
  const reward = instance.params.reward === 'dense' ? prefixMatches / r.s : correct ? 1 : 0;
  return {
    reward,
    correct,
    details: {
      expected: r.g.elementNames[expected],
      got: got >= 0 ? r.g.elementNames[got] : null,
      prefixMatches,
      scratch: r.s,
    },
  };
}

function groupMetrics(instance: GroupMulInstance, completions: readonly (readonly number[])[]): Record<string, number> {
  // Answering at once (block layout, a one-token scratchpad) leaves no chain of thought to align.
  if (completions.length === 0 || (instance.params.layout === 'block' && scratchLength(instance.params) <= 1))
    return {};
  let prefix = 0;
  let suffix = 0;
  for (const c of completions) {
    const r = read(instance, Array.isArray(c) ? c : []);
    prefix += matches(r.ys, r.prefixTargets) / r.s;
    suffix += matches(r.ys, r.suffixTargets) / r.s;
  }
  return { cot_alignment_prefix: prefix / completions.length, cot_alignment_suffix: suffix / completions.length };
}

/** "prefix" / "suffix" / "prefix+suffix" when every scratchpad token is that running product, else "other". */
function signature(instance: GroupMulInstance, completion: readonly number[]): string {
  const r = read(instance, completion);
  const p = matches(r.ys, r.prefixTargets) === r.s;
  const q = matches(r.ys, r.suffixTargets) === r.s;
  return p && q ? 'prefix+suffix' : p ? 'prefix' : q ? 'suffix' : 'other';
}

/** The final answer token written ("answer:none" when it is not an element). */
function errorSignature(instance: GroupMulInstance, completion: readonly number[]): string {
  const r = read(instance, completion);
  const got = r.ys[r.s - 1];
  if (got === r.prefixTargets[r.s - 1]) return 'correct';
  return got >= 0 ? `answer:${r.g.elementNames[got]}` : 'answer:none';
}

/**
 * The learned Cayley table (interleaved layout, chains of two or more): after [BOS, x1 = a,
 * y1 = a, x2 = x] the right y2 is a·x, and it depends on nothing else.
 */
function tableProbe(params: GroupMulParams): TableProbe | null {
  if (params.layout !== 'interleaved' || params.length < 2) return null;
  const g = getGroup(params.group);
  const tokens = g.elementNames.map((_, i) => NUM_SPECIAL + i);
  return {
    labels: [...g.elementNames],
    tokens,
    prompt: (a, x) => [BOS, tokens[a], tokens[a], tokens[x]],
    truth: g.table.map((row) => [...row]),
  };
}

/** The split's key: the group and the chain (whatever the layout or the scratchpad). */
const splitKeys = (inst: GroupMulInstance): Record<string, string> => ({
  instance: `${inst.group}:${inst.chain.join(',')}`,
});

export const groupmulTask: Task<GroupMulParams, GroupMulInstance> = defineTask({
  name: 'groupmul',
  summary: 'Iterated group multiplication: multiply a chain of k elements, with a scratchpad; last-token reward.',
  params: GROUPMUL_PARAMS,
  display: groupmulDisplay,
  metrics: GROUPMUL_METRICS,
  checkParams,
  vocab,
  shape,
  // The core data is the chain.
  instances: { draw, read: chainFromJSON, build },
  verify,
  groupMetrics,
  signature,
  errorSignature,
  tableProbe,
  splitKeys,
  breaks: groupmulBreaks,
});
