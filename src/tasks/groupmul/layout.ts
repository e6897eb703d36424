// groupmul's parameters and instances, and where the y's of the scratchpad sit: what the task,
// its marks and its display all read (the task itself is task.ts).

import { GROUP_NAMES, GROUP_NAMES_TEXT } from './groups';
import { enumParam, intParam } from '../params';
import type { ParamSpec, TaskInstance } from '../types';

export type GroupMulParams = {
  group: string;
  length: number;
  scratch: number;
  layout: 'block' | 'interleaved';
  reward: 'last' | 'dense';
};

export const GROUPMUL_PARAMS: readonly ParamSpec[] = [
  {
    name: 'group',
    kind: 'string',
    default: 'S3',
    values: GROUP_NAMES,
    allowed: GROUP_NAMES_TEXT,
    doc: 'Group whose elements are multiplied: cyclic Z<n>, dihedral D<n> (order 2n), S3, S4, A4, A5 (order 60, the smallest non-solvable group), S5 (order 120), the quaternion group Q8, or a fixed seeded Latin-square quasigroup quasi<n> (non-associative, folded left).',
  },
  intParam(
    'length',
    8,
    [1, 16],
    'Number k of elements in the chain to multiply (1: copy the single element; a curriculum can start there so that every y_t is rewarded in turn).',
  ),
  intParam(
    'scratch',
    0,
    [0, 16],
    'Scratchpad length s in element tokens (block layout, at most length); 0 means s = length (room for every running product), 1 means answer at once.',
  ),
  enumParam(
    'layout',
    ['block', 'interleaved'],
    'block: the whole chain, then the scratchpad; interleaved: the environment writes x_t and the policy writes y_t after it (the "myopic" setting of the seed paper).',
  ),
  enumParam(
    'reward',
    ['last', 'dense'],
    "last: 1 iff the last scratchpad token is the product (the seed paper's last-token reward); dense: fraction of scratchpad tokens equal to the left-to-right running product (ablation).",
  ),
];

export interface GroupMulInstance extends TaskInstance {
  task: 'groupmul';
  params: GroupMulParams;
  group: string;
  /** index → token text; token id = NUM_SPECIAL + index. */
  elementNames: string[];
  /** Element indices x1..xk. */
  chain: number[];
  /** Permutation groups: each element in one-line notation (p[i] is the image of i). */
  perms?: number[][];
  /** Quasigroups: the multiplication table, table[a][b] = a*b. */
  table?: number[][];
  /** Index of the product (left fold of the chain). */
  answer: number;
}

/** Scratchpad length s after resolving 0 → length (interleaved: one y per x). */
export function scratchLength(p: GroupMulParams): number {
  return p.layout === 'interleaved' || p.scratch === 0 ? p.length : p.scratch;
}

/**
 * Prefix length whose running product scratchpad position j (0-based) should hold: the s
 * positions spread the k products evenly, ceil((j+1)·k/s), so the last one is the full product.
 */
export function targetPrefixLength(j: number, k: number, s: number): number {
  return Math.ceil(((j + 1) * k) / s);
}

/** Completion positions the policy writes (the y's). */
export function policyPositions(p: GroupMulParams): number[] {
  const s = scratchLength(p);
  return Array.from({ length: s }, (_, j) => (p.layout === 'interleaved' ? 2 * j : j));
}
