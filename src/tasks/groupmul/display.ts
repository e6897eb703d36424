// How the page shows groupmul: element names for the tokens and the prompt, and the chain a
// group's picture draws (Task.display.picture), x₁ … x_k with the running product each scratchpad y
// should hold, and every answer's y's marked against them.
//
// Column t of the chain is x_{t+1}. Scratchpad position j should hold x₁⋯x_{L_j}, so its y sits in
// column L_j − 1: every column with an interleaved layout (s = k), every second one with s = k/2,
// only the last with s = 1 (no scratchpad: the answer at once).

import type {
  Alignment,
  ChainColumn,
  ChainLayout,
  ChainPicture,
  ChainRow,
  Mark,
  PictureAnswers,
  ScratchTarget,
} from '../picture';
import { NUM_SPECIAL, type MetricSpec, type TaskDisplay } from '../types';
import { scratchLength, type GroupMulInstance, type GroupMulParams } from './layout';
import { alignment, markScratchpad, scratchTargets, type ScratchToken } from './marks';
import { displayNames, elementDisplay, subscript } from './names';

export type { Alignment, ChainColumn, ChainLayout, ChainPicture, ScratchTarget } from '../picture';

/** A scratchpad exists when the model writes more than the answer: s > 1 (interleaved has s = k). */
export function hasScratchpad(inst: GroupMulInstance): boolean {
  return scratchLength(inst.params) > 1;
}

/** "x₁⋯x₃" (or "x₁" for a prefix of one). */
export function prefixLabel(L: number): string {
  return L === 1 ? 'x₁' : `x₁⋯x${subscript(L)}`;
}

export const MARK_WORDS: Record<Mark, string> = {
  match: '✓ equals the running product',
  wrong: '✗ not the running product',
  missing: '✗ no element here (not an element, or after the end)',
};

/** A scratchpad's CoT alignment in words. */
export function alignmentOf(marks: readonly ScratchToken[]): Alignment {
  const matched = marks.filter((m) => m.mark === 'match').length;
  const pct = Math.round(100 * alignment(marks));
  return {
    matched,
    total: marks.length,
    text: `CoT ${matched}/${marks.length}`,
    title: `CoT alignment ${pct}%: ${matched} of ${marks.length} scratchpad tokens equal their running product`,
  };
}

/** The chain of one prompt with its targets, in display names. */
export function chainLayout(inst: GroupMulInstance): ChainLayout {
  const d = elementDisplay(inst.group);
  const t = scratchTargets(inst);
  const targets: ScratchTarget[] = t.targets.map((element, j) => ({
    j,
    label: `y${subscript(j + 1)}`,
    element,
    name: d.names[element],
    prefixLength: t.prefixLengths[j],
    prefix: prefixLabel(t.prefixLengths[j]),
  }));
  const byColumn = new Map(targets.map((target) => [target.prefixLength - 1, target] as const));
  const chain = inst.chain.map((x, col): ChainColumn => ({
    t: col,
    label: `x${subscript(col + 1)}`,
    element: x,
    name: d.names[x],
    describe: d.describe[x],
    target: byColumn.get(col) ?? null,
  }));
  return {
    group: inst.group,
    display: d,
    layout: inst.params.layout,
    k: inst.chain.length,
    s: targets.length,
    hasScratchpad: hasScratchpad(inst),
    chain,
    targets,
    product: { element: inst.answer, name: d.names[inst.answer] },
  };
}

/**
 * The chain picture of one group (Task.display.picture): the chain with its running products, and
 * each answer's y's in the columns they belong to, marked against them.
 */
export function chainPicture(inst: GroupMulInstance, answers: PictureAnswers): ChainPicture {
  const layout = chainLayout(inst);
  const t = scratchTargets(inst);
  const { names } = layout.display;
  const rows = Array.from({ length: answers.G }, (_, g): ChainRow => {
    const marks = markScratchpad(inst, answers.completion(g), t);
    const scratch = marks.map((m) => ({
      j: m.j,
      column: m.prefixLength - 1,
      pos: m.pos,
      mark: m.mark,
      note: `should be ${names[m.target]} = ${prefixLabel(m.prefixLength)}: ${MARK_WORDS[m.mark]}`,
    }));
    return { g, scratch, alignment: layout.hasScratchpad ? alignmentOf(marks) : null };
  });
  return { ...layout, rows };
}

export const GROUPMUL_METRICS: Readonly<Record<string, MetricSpec>> = {
  cot_alignment_prefix: {
    name: 'CoT alignment',
    unit: '0–1',
    scale: 'share',
    doc: 'Share of scratchpad tokens equal to the running product they should hold: how much the chain of thought computes the real thing.',
  },
  cot_alignment_suffix: {
    name: 'CoT alignment (suffix)',
    unit: '0–1',
    scale: 'share',
    // An alternative algorithm: in the CSV, not on the chart.
    charted: false,
    doc: 'The same against the right-to-left running products (an alternative algorithm).',
  },
};

export const groupmulDisplay: TaskDisplay<GroupMulParams, GroupMulInstance> = {
  picture: { group: (inst, answers) => ({ kind: 'chain', chain: chainPicture(inst, answers) }) },
  tokenWords(inst) {
    const { names } = elementDisplay(inst.group);
    return (token, raw) => {
      const e = token - NUM_SPECIAL;
      return e >= 0 && e < names.length ? names[e] : raw;
    };
  },
  promptWords(inst) {
    const { names } = elementDisplay(inst.group);
    return {
      prompt: inst.chain.map((x) => names[x]).join(' · '),
      question: hasScratchpad(inst)
        ? 'Multiply left to right, writing the running products.'
        : 'Multiply left to right; answer at once.',
      answer: names[inst.answer],
    };
  },
  tableNames: (params, labels) => displayNames(params.group, labels),
  headlineMetric: 'task/cot_alignment_prefix',
  // Answering at once leaves no chain of thought to align.
  hasTaskChart: (p) => !(p.layout === 'block' && p.scratch === 1),
  fixedLength: true,
};
