// Test helpers: maze parameters for hand-made mazes. The task's own defaults (no loops, binary
// reward, moves only, no notes in the prompt) on the smallest grid, 3×3 with goals 2 moves away or
// more; a test names only what it is about, and a new maze parameter needs no edit here. And a
// recorded maze with a branching summary of no matched figures, for the recorded walks' tests.

import type { MazeParams } from './board';
import type { BranchingSummary } from './branching';
import type { RecordedMaze } from './recorded-walks';
import { defaultParams } from '../params';
import { mazeTask } from './task';

export function testMazeParams(over: Partial<MazeParams> = {}): MazeParams {
  return { ...defaultParams(mazeTask), size: 3, minDist: 2, ...over };
}

/** A 3×3 maze with a wall in the middle: two shortest paths of 4 moves, RRDD and DDRR. */
export const TEST_RECORDED_MAZE: RecordedMaze = {
  grid: ['S..', '.#.', '..G'],
  start: [0, 0],
  goal: [2, 2],
  shortest: 4,
  shortestPaths: 2,
};

/** One maze's branching summary, no maze with k walks of a kind (the matched figures NaN); `over` sets the rest. */
export function testBranchingSummary(over: Partial<BranchingSummary> = {}): BranchingSummary {
  const none = { mazes: 0, excluded: 1, distinct: NaN, simpson: NaN };
  return {
    mazes: 1,
    walksPerMaze: 4,
    passAtK: [0.5],
    distinctCorrect: 0,
    shortestFound: 0,
    distinctShortest: 0,
    distinctSimple: 0,
    simpsonShortest: NaN,
    simpsonShortestMazes: 0,
    simpsonSimple: NaN,
    simpsonSimpleMazes: 0,
    k: 4,
    matchedCorrect: none,
    matchedShortest: none,
    matchedSimple: none,
    wallContact: 0,
    firstFailureWall: 0,
    branchEntropy: 0,
    otherEntropy: 0,
    ...over,
  };
}
