import { describe, expect, it } from 'vitest';
import { mazeTask } from '../../tasks/maze';
import { EOS } from '../../tasks/types';
import { groupData } from './groupData';
import { testRollout } from './testRollout';
import { testMazeParams } from '../../tasks/maze/testParams';

const params = testMazeParams();
const vocab = mazeTask.vocab(params);
const M = (s: string): number[] => [...s].map((ch) => vocab.indexOf(ch));

/** The markers of one group on a maze (`grid` rows), one walk per string of moves, each ended by EOS. */
function markersOf(grid: string[], walks: string[]) {
  const inst = mazeTask.fromJSON({ task: 'maze', params, grid });
  const d = groupData(testRollout([inst], { completions: [walks.map((w) => [...M(w), EOS])] }), 0, 'advantage');
  if (d.kind !== 'board') throw new Error('expected maze data');
  return d.board.markers;
}

describe('maze marks', () => {
  it('walks that fail on the start cell in different ways leave marks apart, not piled on S', () => {
    // Down into a wall, left and up off the grid, and twice a token that is no move.
    const marks = markersOf(['S.#', '#..', '#.G'], ['D', 'L', 'U', 'S', '#']);
    expect(marks.map((m) => m.count).reduce((a, b) => a + b, 0)).toBe(5);
    const points = marks.flatMap((m) =>
      m.countAt
        ? [
            [m.x, m.y],
            [m.countAt.x, m.countAt.y],
          ]
        : [[m.x, m.y]],
    );
    for (let i = 0; i < points.length; i++) {
      for (let j = i + 1; j < points.length; j++) {
        expect(Math.hypot(points[i][0] - points[j][0], points[i][1] - points[j][1])).toBeGreaterThan(0.34);
      }
    }
    // The one with no wall to point at sits in a corner of the start cell, off the S.
    const loose = marks.find((m) => m.stub === null)!;
    expect(Math.floor(loose.x)).toBe(0);
    expect(Math.floor(loose.y)).toBe(0);
    expect(Math.hypot(loose.x - 0.5, loose.y - 0.5)).toBeGreaterThan(0.35);
    // Its count ("×2") stays in the start cell too, off the S.
    expect(loose.countAt).not.toBeNull();
    expect([Math.floor(loose.countAt!.x), Math.floor(loose.countAt!.y)]).toEqual([0, 0]);
    expect(Math.hypot(loose.countAt!.x - 0.5, loose.countAt!.y - 0.5)).toBeGreaterThan(0.25);
  });

  it("counts stay in their own cell: the goal's in the goal cell (G in the last column), a wall's along its edge", () => {
    // Three walks reach G (in the right-hand column, where a count to the right would leave the
    // grid); two walk down from S into the wall below it; one is a single mark with no count.
    const marks = markersOf(['S..', '##.', '..G'], ['RRDD', 'RRDD', 'RRDD', 'D', 'D', 'R']);
    const goal = marks.find((m) => m.kind === 'goal')!;
    expect(goal.count).toBe(3);
    expect([Math.floor(goal.countAt!.x), Math.floor(goal.countAt!.y)]).toEqual([2, 2]);
    expect(Math.hypot(goal.countAt!.x - goal.x, goal.countAt!.y - goal.y)).toBeGreaterThan(0.4);
    const wall = marks.find((m) => m.kinds.includes('wall'))!;
    expect(wall.count).toBe(2);
    // The edge S–wall below is horizontal (y = 1): the count sits on it, beside the ✗, inside the grid.
    expect(wall.countAt!.y).toBe(wall.y);
    expect(Math.abs(wall.countAt!.x - wall.x)).toBeCloseTo(0.42);
    expect(wall.countAt!.x).toBeGreaterThan(0);
    const single = marks.find((m) => m.count === 1)!;
    expect(single.countAt).toBeNull();
  });
});
