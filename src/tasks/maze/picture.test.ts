import { describe, expect, it } from 'vitest';
// The maze's pictures (Task.display.picture): the ways to G on a recorded maze, and the file read
// for the page. (A group's board: src/ui/answers/groupDataMaze.test.ts, through the page's groupData.)
import { MAX_DRAWN_WALKS, mazePicture, waysPicture as waysData } from './picture';
import { recordedModel, withRecordedModel } from './recorded-walks';
import type { CorrectWalk } from './branching';
import { TEST_RECORDED_MAZE, testBranchingSummary } from './testParams';
import { mazeTask } from './task';

const maze = TEST_RECORDED_MAZE;
const summary = testBranchingSummary({ walksPerMaze: 64 });
const model = (walks: CorrectWalk[]) => recordedModel('m', 'm.safetensors', 1, summary, [walks]);
/** The picture of one model's ways to G on the recorded maze, from its correct walks. */
const ways = (...walks: CorrectWalk[]) => waysData(maze, model(walks), 0);

describe("waysPicture: one model's ways to G on one recorded maze", () => {
  it('draws each way once, the most taken on top, thickest and darkest, with a caption that counts them', () => {
    const d = ways({ moves: 'RRDD', count: 30, shortest: true }, { moves: 'RLRRDD', count: 3, shortest: false });
    expect(d).toMatchObject({ reached: 33, distinct: 2 });
    expect(d.board.walks).toHaveLength(2);
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
    const d = ways(...many);
    expect(d.board.walks).toHaveLength(MAX_DRAWN_WALKS);
    expect(d.caption).toBe(
      `${MAX_DRAWN_WALKS + 3} of 64 walks reached G by ${MAX_DRAWN_WALKS + 3} ways; 1 of 2 shortest; the ${MAX_DRAWN_WALKS} most taken drawn`,
    );
    expect(ways().caption).toBe('no walk of 64 reached G');
  });

  it('says how often each shortest path was taken when more than one was: an even split or one path', () => {
    const both = ways(
      { moves: 'RRDD', count: 20, shortest: true },
      { moves: 'DDRR', count: 18, shortest: true },
      { moves: 'RLRRDD', count: 3, shortest: false },
    );
    expect(both.caption).toBe('41 of 64 walks reached G by 3 ways; 2 of 2 shortest, taken 20 / 18 times');
    const one = ways({ moves: 'RRDD', count: 40, shortest: true }, { moves: 'DDRR', count: 1, shortest: true });
    expect(one.caption).toBe('41 of 64 walks reached G by 2 ways; 2 of 2 shortest, taken 40 / 1 times');
  });
});

describe('the recorded walks file as the page reads it (display.picture.recorded)', () => {
  const recorded = mazePicture.recorded!;
  const walks = [{ moves: 'RRDD', count: 30, shortest: true }];
  const file = withRecordedModel(
    withRecordedModel(null, 'test', [maze], model(walks)),
    'test',
    [maze],
    recordedModel('trained', 't.safetensors', 2, summary, [[{ moves: 'DDRR', count: 50, shortest: true }]]),
  );

  it("is the task display's hook, and says why a file is not one", () => {
    expect(mazeTask.display.picture).toBe(mazePicture);
    expect(recorded.read({ kind: 'other' })).toBe('not a maze walks file (kind must be "maze-walks")');
  });

  it("gives each model's board and the summary over the mazes", () => {
    const read = recorded.read(JSON.parse(JSON.stringify(file)));
    if (typeof read === 'string') throw new Error(read);
    expect(read.problems).toBe(1);
    expect(read.models).toEqual([
      { label: 'm', answersPerProblem: 64 },
      { label: 'trained', answersPerProblem: 64 },
    ]);
    expect(read.picture(1, 0).board.walks.map((w) => w.path.moves)).toEqual(['DDRR']);
    expect(read.picture(0, 0).caption).toBe('30 of 64 walks reached G by 1 way; 1 of 2 shortest');
    // Without the matched figures (a file written before they were kept): the count of ways.
    expect(read.summary(0, 1)).toEqual({
      head: 'Over all 1 mazes: pass@1 0.50 → 0.50, pass@64 – → –.',
      detail: 'Distinct ways to G 0.00 → 0.00 per maze (a count that grows with the walks that reach G).',
      matched: false,
    });
    // With the matched figures on both sides: the first k shortest and correct walks of each maze.
    const raw = { perMaze: [], sampled: [], greedy: [] };
    const kept = recorded.read(
      withRecordedModel(file, 'test', [maze], recordedModel('kept', 'k.safetensors', 3, summary, [walks], raw)),
    );
    if (typeof kept === 'string') throw new Error(kept);
    expect(kept.summary(0, 2).matched).toBe(false);
    expect(kept.summary(2, 2)).toMatchObject({ matched: true });
    expect(kept.summary(2, 2).detail).toBe(
      'Shortest paths found 0.00 → 0.00; among the first 4 shortest walks of a maze (0 → 0 mazes have 4) – → – distinct paths, evenness – → –; among the first 4 correct walks – → –.',
    );
  });
});
