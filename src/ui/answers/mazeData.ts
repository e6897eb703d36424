// The board view of one group: each walk as the maze task decodes it (src/tasks/maze/walks.ts:
// its path, how it ended), coloured by its advantage and offset so that walks along one corridor
// stay apart, and the end markers once the verifier has judged.

import {
  mazeMarkers,
  pathOffset,
  walkEnd,
  type Cell,
  type MazeInstance,
  type MazeMarker,
  type WalkEnd,
} from '../../tasks/maze';
import { css, mix, NEGATIVE, POSITIVE, WHITE } from '../views/colour';

export type { Cell, FailureKind, MazeFailure, MazeMarker, MazeOutcome } from '../../tasks/maze';
export { mazeMarkers, walkFailure } from '../../tasks/maze';

export interface MazeWalk extends WalkEnd {
  /** The verifier's verdict; null before the verify phase. */
  correct: boolean | null;
  /** Sequence advantage; undefined before the advantages phase. */
  advantage: number | undefined;
  /** Stroke colour from the walk's advantage (grey for 0 or not yet computed). */
  colour: string;
  /** Perpendicular offset in cells, so that walks along the same corridor stay visible. */
  offset: number;
  /** Stroke width relative to a group's walks (recorded walks: thicker the more often taken); default 1. */
  weight?: number;
  /** The hover text, when not the group's "answer g (verdict, A)". */
  title?: string;
}

export interface MazeData {
  grid: string[];
  size: number;
  start: Cell;
  goal: Cell;
  shortest: number;
  shortestPaths: number;
  walks: MazeWalk[];
  /** End markers; empty before the verify phase (the view does not judge before the verifier has). */
  markers: MazeMarker[];
}

/** Grey for a walk with no advantage (0, or not computed yet). */
export const ZERO_ADVANTAGE_STROKE = 'rgb(140, 146, 156)';

/**
 * Stroke colour of a walk with sequence advantage A, on the diverging palette: blue for A > 0,
 * red for A < 0, at least 40% saturated so that a thin line still shows on white; grey for 0.
 */
export function walkColour(advantage: number | undefined, bound: number): string {
  if (advantage === undefined || !Number.isFinite(advantage) || Math.abs(advantage) < 1e-9 || !(bound > 0))
    return ZERO_ADVANTAGE_STROKE;
  const t = 0.4 + 0.6 * Math.min(1, Math.abs(advantage) / bound);
  return css(mix(WHITE, advantage > 0 ? POSITIVE : NEGATIVE, t));
}

/** Everything the maze board and its rows draw, for one group. */
export function mazeData(
  inst: MazeInstance,
  vocab: readonly string[],
  G: number,
  completionOf: (g: number) => number[],
  correctOf: (g: number) => boolean | null,
  advantageOf: (g: number) => number | undefined,
  advantageBound: number,
): MazeData {
  const walks = Array.from({ length: G }, (_, g): MazeWalk => {
    const advantage = advantageOf(g);
    return {
      ...walkEnd(inst, vocab, completionOf(g), g),
      correct: correctOf(g),
      advantage,
      colour: walkColour(advantage, advantageBound),
      offset: pathOffset(g, G),
    };
  });
  const verified = walks.every((w) => w.correct !== null);
  return {
    grid: inst.grid,
    size: inst.grid.length,
    start: inst.start,
    goal: inst.goal,
    shortest: inst.shortest,
    shortestPaths: inst.shortestPaths,
    walks,
    markers: verified ? mazeMarkers(inst, walks) : [],
  };
}

/** Drawing order: the lowest advantage first, so the best walks lie on top. */
export function walkDrawOrder(walks: readonly MazeWalk[]): MazeWalk[] {
  return [...walks].sort((a, b) => (a.advantage ?? 0) - (b.advantage ?? 0) || a.g - b.g);
}
