// Test helper: maze parameters for hand-made mazes. The task's own defaults (no loops, binary
// reward, moves only, no notes in the prompt) on the smallest grid, 3×3 with goals 2 moves away or
// more; a test names only what it is about, and a new maze parameter needs no edit here.

import type { MazeParams } from './board';
import { defaultParams } from '../params';
import { mazeTask } from './task';

export function testMazeParams(over: Partial<MazeParams> = {}): MazeParams {
  return { ...defaultParams(mazeTask), size: 3, minDist: 2, ...over };
}
