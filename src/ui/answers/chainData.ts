// The chain picture of one group (the task's, Task.display.picture) with each scratchpad y joined
// to its answer's token box: the cell's colour and facts, and a tooltip that adds what it should
// have been.

import type { ChainLayout, ChainPicture, ChainRow, ChainScratch } from '../../tasks/picture';
import type { GroupCell } from './tokenCells';

export interface ScratchCell extends ChainScratch {
  /** The answer's token at this y position (colour, kind, facts). */
  cell: GroupCell;
  /** Tooltip: the token's facts and what it should have been. */
  title: string;
}

export interface ChainRowCells extends Omit<ChainRow, 'scratch'> {
  scratch: ScratchCell[];
}

export interface ChainData extends ChainLayout {
  rows: ChainRowCells[];
}

/** `picture` with answer g's cells (`cellsOf(g)`, over the whole completion region) under its y's. */
export function chainData(picture: ChainPicture, cellsOf: (g: number) => GroupCell[]): ChainData {
  const rows = picture.rows.map((row): ChainRowCells => {
    const cells = cellsOf(row.g);
    return {
      ...row,
      scratch: row.scratch.map((m) => ({ ...m, cell: cells[m.pos], title: `${cells[m.pos].title}\n${m.note}` })),
    };
  });
  return { ...picture, rows };
}
