// groupmul, one group: the chain x₁ … x_k with display names, the running product each
// scratchpad position should hold, and every answer's y's marked against it. The marking is
// groupmul-marks.ts's (the task's own targets); this file lines it up in columns under the chain.
//
// Column t of the grid is x_{t+1}. Scratchpad position j should hold x₁⋯x_{L_j}, so its y sits in
// column L_j − 1: every column with an interleaved layout (s = k), every second one with s = k/2,
// only the last with s = 1 (no scratchpad: the answer at once).

import type { GroupMulInstance } from '../../tasks/groupmul';
import { scratchLength } from '../../tasks/groupmul';
import { alignment, markScratchpad, scratchTargets, type Mark, type ScratchToken } from '../views/groupmul-marks';
import { elementDisplay, subscript, type ElementDisplay } from './elementNames';
import { isSpecialToken, type DisplayText, type GroupCell } from './tokenCells';
import { NUM_SPECIAL } from '../../tasks/types';

export type { Mark } from '../views/groupmul-marks';

/** What scratchpad position j should hold. */
export interface ScratchTarget {
  j: number;
  /** "y₁". */
  label: string;
  element: number;
  name: string;
  /** L_j: the y should be x₁⋯x_{L_j}. */
  prefixLength: number;
}

export interface ChainColumn {
  /** 0-based position in the chain. */
  t: number;
  /** "x₁". */
  label: string;
  element: number;
  name: string;
  describe: string;
  /** The scratchpad position whose y belongs under this x, if any. */
  target: ScratchTarget | null;
}

export interface ScratchCell {
  j: number;
  /** Chain column it sits under. */
  column: number;
  /** The answer's token at this y position (colour, kind, facts). */
  cell: GroupCell;
  /** match: equals its running product; wrong: another element; missing: not an element, or after an <eos>. */
  mark: Mark;
  /** Tooltip: the token's facts and what it should have been. */
  title: string;
}

export interface Alignment {
  matched: number;
  total: number;
  /** "CoT 4/5". */
  text: string;
  title: string;
}

export interface GroupMulRow {
  g: number;
  scratch: ScratchCell[];
  /** CoT alignment; null without a scratchpad (one y: the answer itself). */
  alignment: Alignment | null;
}

export interface GroupMulData {
  group: string;
  display: ElementDisplay;
  layout: 'block' | 'interleaved';
  /** Chain length. */
  k: number;
  /** Scratchpad length (number of y's). */
  s: number;
  /** More than one y: the model writes intermediate running products (CoT). */
  hasScratchpad: boolean;
  chain: ChainColumn[];
  product: { element: number; name: string };
  rows: GroupMulRow[];
}

/** A scratchpad exists when the model writes more than the answer: s > 1 (interleaved has s = k). */
export function hasScratchpad(inst: GroupMulInstance): boolean {
  return scratchLength(inst.params) > 1;
}

/** Element tokens show their display names; anything else its vocabulary text. */
export function groupmulDisplayText(inst: GroupMulInstance): DisplayText {
  const { names } = elementDisplay(inst.group);
  return (token, raw) => {
    const e = token - NUM_SPECIAL;
    return !isSpecialToken(token) && e >= 0 && e < names.length ? names[e] : raw;
  };
}

/** "x₁⋯x₃" (or "x₁" for a prefix of one). */
export function prefixLabel(L: number): string {
  return L === 1 ? 'x₁' : `x₁⋯x${subscript(L)}`;
}

const MARK_WORDS: Record<Mark, string> = {
  match: '✓ equals the running product',
  wrong: '✗ not the running product',
  missing: '✗ no element here (not an element, or after the end)',
};

function scratchTitle(m: ScratchToken, cell: GroupCell, names: readonly string[]): string {
  return `${cell.title}\nshould be ${names[m.target]} = ${prefixLabel(m.prefixLength)}: ${MARK_WORDS[m.mark]}`;
}

function alignmentOf(marks: readonly ScratchToken[]): Alignment {
  const matched = marks.filter((m) => m.mark === 'match').length;
  const pct = Math.round(100 * alignment(marks));
  return {
    matched,
    total: marks.length,
    text: `CoT ${matched}/${marks.length}`,
    title: `CoT alignment ${pct}%: ${matched} of ${marks.length} scratchpad tokens equal their running product`,
  };
}

function chainColumns(inst: GroupMulInstance, d: ElementDisplay, targets: ScratchTarget[]): ChainColumn[] {
  const byColumn = new Map(targets.map((t) => [t.prefixLength - 1, t] as const));
  return inst.chain.map((x, t) => ({
    t, label: `x${subscript(t + 1)}`, element: x, name: d.names[x], describe: d.describe[x], target: byColumn.get(t) ?? null,
  }));
}

/**
 * The groupmul part of one group's view. `cellsOf(g)` gives answer g's cells over the whole
 * completion region; `completionOf(g)` its tokens.
 */
export function groupmulData(
  inst: GroupMulInstance, G: number, cellsOf: (g: number) => GroupCell[], completionOf: (g: number) => number[],
): GroupMulData {
  const d = elementDisplay(inst.group);
  const t = scratchTargets(inst);
  const targets: ScratchTarget[] = t.targets.map((element, j) => ({
    j, label: `y${subscript(j + 1)}`, element, name: d.names[element], prefixLength: t.prefixLengths[j],
  }));
  const withScratchpad = hasScratchpad(inst);
  const rows = Array.from({ length: G }, (_, g): GroupMulRow => {
    const cells = cellsOf(g);
    const marks = markScratchpad(inst, completionOf(g), t);
    const scratch = marks.map((m): ScratchCell => ({
      j: m.j, column: m.prefixLength - 1, cell: cells[m.pos], mark: m.mark, title: scratchTitle(m, cells[m.pos], d.names),
    }));
    return { g, scratch, alignment: withScratchpad ? alignmentOf(marks) : null };
  });
  return {
    group: inst.group,
    display: d,
    layout: inst.params.layout,
    k: inst.chain.length,
    s: targets.length,
    hasScratchpad: withScratchpad,
    chain: chainColumns(inst, d, targets),
    product: { element: inst.answer, name: d.names[inst.answer] },
    rows,
  };
}
