import { describe, expect, it } from 'vitest';
import {
  mazesMismatch,
  parseRecordedWalks,
  recordedModel,
  walkCells,
  withRecordedModel,
  type RecordedMaze,
} from './recorded-walks';
import { TEST_RECORDED_MAZE, testBranchingSummary } from './testParams';

const maze = TEST_RECORDED_MAZE;
const other: RecordedMaze = { ...maze, grid: ['S..', '...', '.#G'] };
const summary = (distinct: number) =>
  testBranchingSummary({
    passAtK: [0.5, 0.8, 0.9, 1],
    distinctCorrect: distinct,
    shortestFound: 1,
    branchEntropy: 0.5,
    otherEntropy: 0.1,
  });
const base = recordedModel('base model', 'base.safetensors', 0, summary(1), [
  [{ moves: 'RRDD', count: 2, shortest: true }],
]);
const trained = recordedModel('step 800', 'step800.safetensors', 800, summary(2), [
  [
    { moves: 'RRDD', count: 3, shortest: true },
    { moves: 'DDRR', count: 1, shortest: true },
  ],
]);

describe('recorded walks', () => {
  it('keeps pass@1 and pass@G of the summary', () => {
    expect(trained).toMatchObject({ walksPerMaze: 4, passAt1: 0.5, passAtG: 1, distinctCorrect: 2 });
  });

  it('starts a file, adds models in order, and replaces a model of the same label', () => {
    const one = withRecordedModel(null, 'rlvr eval a', [maze], base);
    expect(one).toEqual({ kind: 'maze-walks', source: 'rlvr eval a', mazes: [maze], models: [base] });
    const two = withRecordedModel(one, 'rlvr eval b', [maze], trained);
    expect(two.models.map((m) => m.label)).toEqual(['base model', 'step 800']);
    expect(two.source).toBe('rlvr eval a; rlvr eval b');
    const again = withRecordedModel(two, 'rlvr eval b', [maze], { ...trained, step: 801 });
    expect(again.models.map((m) => m.step)).toEqual([0, 801]);
  });

  it('refuses other mazes, naming the first that differs or the counts', () => {
    const one = withRecordedModel(null, 'x', [maze, maze], base);
    expect(mazesMismatch(one, [maze, maze])).toBeNull();
    expect(mazesMismatch(one, [maze])).toMatch(/holds walks on 2 mazes and this checkpoint walks 1/);
    expect(mazesMismatch(one, [maze, other])).toMatch(/^maze 2 differs/);
    expect(() => withRecordedModel(one, 'y', [other, maze], trained)).toThrow(/maze 1 differs/);
  });

  it('parses its own file and names the first bad field of anything else', () => {
    const file = withRecordedModel(withRecordedModel(null, 'x', [maze], base), 'x', [maze], trained);
    expect(parseRecordedWalks(JSON.parse(JSON.stringify(file)))).toEqual(file);
    expect(parseRecordedWalks({ kind: 'run' })).toMatch(/kind must be "maze-walks"/);
    expect(parseRecordedWalks({ kind: 'maze-walks', mazes: {}, models: [] })).toMatch(/mazes and models must be lists/);
    expect(parseRecordedWalks({ ...file, mazes: [{ ...maze, start: [0] }] })).toMatch(/^mazes\[0\]: needs grid/);
    expect(parseRecordedWalks({ ...file, models: [{ ...base, walks: [] }] })).toMatch(
      /^models\[0\]: needs a label and walks for each of the 1 mazes/,
    );
    expect(
      parseRecordedWalks({ ...file, models: [base, { ...trained, walks: [[{ moves: 'RX', count: 1 }]] }] }),
    ).toMatch(/^models\[1\] \(step 800\): each walk needs moves/);
  });

  it("follows a walk's moves from the start", () => {
    expect(walkCells([0, 0], 'RRDD')).toEqual([
      [0, 0],
      [0, 1],
      [0, 2],
      [1, 2],
      [2, 2],
    ]);
    expect(walkCells([2, 1], '')).toEqual([[2, 1]]);
    expect(walkCells([1, 1], 'UL')).toEqual([
      [1, 1],
      [0, 1],
      [0, 0],
    ]);
  });
});
