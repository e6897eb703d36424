// Test helper: maze parameters for hand-made mazes. The defaults are the smallest plain maze (3×3,
// no loops, binary reward, moves only, no notes in the prompt); a test names only what it is about,
// so a new maze parameter needs a default here, not an edit in every test.

import type { MazeParams } from './board';

export const TEST_MAZE_PARAMS: MazeParams = {
  size: 3,
  braid: 0,
  minDist: 2,
  maxDist: 99,
  nearGoals: 0,
  reward: 'binary',
  answer: 'moves',
  startNote: 'off',
  goalNote: 'off',
};

export function testMazeParams(over: Partial<MazeParams> = {}): MazeParams {
  return { ...TEST_MAZE_PARAMS, ...over };
}
