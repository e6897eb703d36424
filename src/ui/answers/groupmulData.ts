// The chain view of one group: the task's chain layout (src/tasks/groupmul/display.ts) with every
// answer's y's lined up in columns under the chain and marked against their running products.

import {
  alignmentOf,
  chainLayout,
  markScratchpad,
  MARK_WORDS,
  prefixLabel,
  scratchTargets,
  type Alignment,
  type ChainLayout,
  type GroupMulInstance,
  type Mark,
  type ScratchToken,
} from '../../tasks/groupmul';
import type { GroupCell } from './tokenCells';

export type { Alignment, ChainColumn, Mark, ScratchTarget } from '../../tasks/groupmul';
export { hasScratchpad, prefixLabel } from '../../tasks/groupmul';

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

export interface GroupMulRow {
  g: number;
  scratch: ScratchCell[];
  /** CoT alignment; null without a scratchpad (one y: the answer itself). */
  alignment: Alignment | null;
}

export interface GroupMulData extends ChainLayout {
  rows: GroupMulRow[];
}

function scratchTitle(m: ScratchToken, cell: GroupCell, names: readonly string[]): string {
  return `${cell.title}\nshould be ${names[m.target]} = ${prefixLabel(m.prefixLength)}: ${MARK_WORDS[m.mark]}`;
}

/**
 * The chain part of one group's view. `cellsOf(g)` gives answer g's cells over the whole
 * completion region; `completionOf(g)` its tokens.
 */
export function groupmulData(
  inst: GroupMulInstance,
  G: number,
  cellsOf: (g: number) => GroupCell[],
  completionOf: (g: number) => number[],
): GroupMulData {
  const layout = chainLayout(inst);
  const t = scratchTargets(inst);
  const rows = Array.from({ length: G }, (_, g): GroupMulRow => {
    const cells = cellsOf(g);
    const marks = markScratchpad(inst, completionOf(g), t);
    const scratch = marks.map((m): ScratchCell => ({
      j: m.j,
      column: m.prefixLength - 1,
      cell: cells[m.pos],
      mark: m.mark,
      title: scratchTitle(m, cells[m.pos], layout.display.names),
    }));
    return { g, scratch, alignment: layout.hasScratchpad ? alignmentOf(marks) : null };
  });
  return { ...layout, rows };
}
