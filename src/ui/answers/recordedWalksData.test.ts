import { describe, expect, it } from 'vitest';
import { MAX_DRAWN_WALKS, waysData } from './recordedWalksData';
import { recordedModel, type RecordedMaze } from '../../tasks/maze';
import type { BranchingSummary, CorrectWalk } from '../../tasks/maze';

const maze: RecordedMaze = { grid: ['S..', '.#.', '..G'], start: [0, 0], goal: [2, 2], shortest: 4, shortestPaths: 2 };
const summary: BranchingSummary = {
  mazes: 1,
  walksPerMaze: 64,
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
  matchedCorrect: { mazes: 0, excluded: 1, distinct: NaN, simpson: NaN },
  matchedShortest: { mazes: 0, excluded: 1, distinct: NaN, simpson: NaN },
  matchedSimple: { mazes: 0, excluded: 1, distinct: NaN, simpson: NaN },
  wallContact: 0,
  firstFailureWall: 0,
  branchEntropy: 0,
  otherEntropy: 0,
};
const model = (walks: CorrectWalk[]) => recordedModel('m', 'm.safetensors', 1, summary, [walks]);

describe("waysData: one model's ways to G on one recorded maze", () => {
  it('draws each way once, the most taken on top, thickest and darkest, with a caption that counts them', () => {
    const d = waysData(
      maze,
      model([
        { moves: 'RRDD', count: 30, shortest: true },
        { moves: 'RLRRDD', count: 3, shortest: false },
      ]),
      0,
    );
    expect(d).toMatchObject({ reached: 33, distinct: 2, shortestFound: 1, drawn: 2 });
    expect(d.caption).toBe('33 of 64 walks reached G by 2 ways; 1 of 2 shortest');
    const [most, least] = d.board.walks;
    expect(most.path.cells).toEqual([
      [0, 0],
      [0, 1],
      [0, 2],
      [1, 2],
      [2, 2],
    ]);
    // Drawn in order of g: the most taken last.
    expect(most.g).toBeGreaterThan(least.g);
    expect(most.weight).toBeGreaterThan(least.weight!);
    expect(most.title).toBe('RRDD: taken by 30 of 64 sampled walks, a shortest path');
    expect(least.title).toBe('RLRRDD: taken by 3 of 64 sampled walks, with a detour');
    expect(d.board.markers).toEqual([]);
  });

  it('draws at most MAX_DRAWN_WALKS and says so; a maze no walk solved says that', () => {
    const many = Array.from({ length: MAX_DRAWN_WALKS + 3 }, (_, i): CorrectWalk => ({
      moves: `RRDD${'LR'.repeat(i)}`,
      count: 1,
      shortest: i === 0,
    }));
    const d = waysData(maze, model(many), 0);
    expect(d.board.walks).toHaveLength(MAX_DRAWN_WALKS);
    expect(d.caption).toBe(
      `${MAX_DRAWN_WALKS + 3} of 64 walks reached G by ${MAX_DRAWN_WALKS + 3} ways; 1 of 2 shortest; the ${MAX_DRAWN_WALKS} most taken drawn`,
    );
    expect(waysData(maze, model([]), 0).caption).toBe('no walk of 64 reached G');
  });

  it('says how often each shortest path was taken when more than one was: an even split or one path', () => {
    const both = waysData(
      maze,
      model([
        { moves: 'RRDD', count: 20, shortest: true },
        { moves: 'DDRR', count: 18, shortest: true },
        { moves: 'RLRRDD', count: 3, shortest: false },
      ]),
      0,
    );
    expect(both.caption).toBe('41 of 64 walks reached G by 3 ways; 2 of 2 shortest, taken 20 / 18 times');
    const one = waysData(
      maze,
      model([
        { moves: 'RRDD', count: 40, shortest: true },
        { moves: 'DDRR', count: 1, shortest: true },
      ]),
      0,
    );
    expect(one.caption).toBe('41 of 64 walks reached G by 2 ways; 2 of 2 shortest, taken 40 / 1 times');
  });
});
