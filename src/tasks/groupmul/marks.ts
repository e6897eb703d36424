// Marking a groupmul scratchpad: is each y the running product of the prefix it should hold?
// The algebra and the targets are the task's own (prefixProducts, scratchLength,
// targetPrefixLength); this file only lines completions up with them.

import { getGroup, prefixProducts } from './groups';
import { scratchLength, targetPrefixLength, type GroupMulInstance } from './layout';
import { EOS, NUM_SPECIAL } from '../types';

// Mark: match, the y equals its running product; wrong, another element; missing, not an element, or cut by an EOS.
import type { Mark } from '../picture';

export type { Mark };

export interface ScratchToken {
  /** Scratchpad index j. */
  j: number;
  /** Completion position of y_j. */
  pos: number;
  /** Element written, or −1. */
  got: number;
  /** Running product it should hold: the product of the first `prefixLength` elements. */
  target: number;
  prefixLength: number;
  mark: Mark;
}

export interface ScratchTargets {
  /** Completion positions of the y's (the template's policy positions before the closing EOS). */
  positions: number[];
  /** [s] target element per scratchpad position. */
  targets: number[];
  /** [s] prefix length L_j per scratchpad position. */
  prefixLengths: number[];
}

export function scratchTargets(inst: GroupMulInstance): ScratchTargets {
  const s = scratchLength(inst.params);
  const k = inst.chain.length;
  const prefix = prefixProducts(getGroup(inst.group).table, inst.chain);
  const positions: number[] = [];
  inst.fixed.forEach((f, c) => {
    if (f === null && positions.length < s) positions.push(c);
  });
  const prefixLengths = Array.from({ length: s }, (_, j) => targetPrefixLength(j, k, s));
  return { positions, targets: prefixLengths.map((L) => prefix[L - 1]), prefixLengths };
}

/** Marks every scratchpad token of one completion (the tokens of the completion region). */
export function markScratchpad(
  inst: GroupMulInstance,
  completion: readonly number[],
  t = scratchTargets(inst),
): ScratchToken[] {
  const order = getGroup(inst.group).order;
  let eos = completion.indexOf(EOS);
  if (eos < 0) eos = Infinity;
  return t.positions.map((pos, j) => {
    const tok = completion[pos];
    const e = tok - NUM_SPECIAL;
    const got = pos < eos && Number.isInteger(e) && e >= 0 && e < order ? e : -1;
    const target = t.targets[j];
    return {
      j,
      pos,
      got,
      target,
      prefixLength: t.prefixLengths[j],
      mark: got < 0 ? 'missing' : got === target ? 'match' : 'wrong',
    };
  });
}

/** Fraction of scratchpad tokens that match their running product (the CoT alignment of one completion). */
export function alignment(marks: readonly ScratchToken[]): number {
  return marks.length === 0 ? 0 : marks.filter((m) => m.mark === 'match').length / marks.length;
}
