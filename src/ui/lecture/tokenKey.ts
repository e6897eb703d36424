// Which token marks the shown group uses that need a key: ∅ (a chain's y where the model wrote an
// end or padding token, or an answer that is only its end token), struck-through boxes (written
// by the model, not trained) and dashed boxes (written by the environment). Pure, from the
// group's data.

import { visibleCells, type GroupCell, type GroupViewData } from '../answers';

export type TokenMark = 'empty' | 'untrained' | 'fixed';

export const TOKEN_MARK_TEXT: Record<TokenMark, { sample: string; text: string }> = {
  empty: { sample: '∅', text: 'end or padding token' },
  untrained: { sample: 'a', text: 'not trained' },
  fixed: { sample: 'a', text: 'written by the task' },
};

/** The longer story, on hover. */
export const TOKEN_MARK_TITLE: Record<TokenMark, string> = {
  empty:
    "The model wrote an end or padding token where an element of the chain belongs (its name is in the box's tooltip).",
  untrained: "Written by the model but not trained: after the answer's end, or masked out of the loss.",
  fixed: "Written by the task's template, not sampled from the model: not trained.",
};

/** The marks present in the group as shown, in a fixed order. */
export function tokenMarks(data: GroupViewData, showSpecial: boolean): TokenMark[] {
  const cells: GroupCell[] = [];
  let empty = false;
  if (data.kind === 'chain') {
    for (const row of data.chain.rows) {
      for (const m of row.scratch) {
        cells.push(m.cell);
        if (m.cell.special) empty = true;
      }
    }
  } else {
    for (const a of data.answers) cells.push(...visibleCells(a.cells, showSpecial));
    // With specials hidden, the only one left is an answer's lone end token, drawn ∅.
    if (!showSpecial && cells.some((c) => c.special)) empty = true;
  }
  const out: TokenMark[] = [];
  if (empty) out.push('empty');
  if (cells.some((c) => c.kind === 'untrained')) out.push('untrained');
  if (cells.some((c) => c.kind === 'fixed')) out.push('fixed');
  return out;
}
