// The maze task's answer region and the cells' notes: startNote and goalNote (a cell's note at the
// end of the prompt), answer = cells (each move followed by the cell it reached), and the move
// budget (at most n² moves, the last slot the end token's). The maze itself, its rewards and
// metrics are tested in task.test.ts.
import { describe, expect, it } from 'vitest';
import { makeRng, STREAM } from '../../core/random';
import { mazeTask as maze, type MazeInstance } from './task';
import { MOVE_DELTAS, MOVE_NAMES } from './gen';
import { parseParams } from '../params';
import { EOS } from '../types';
import { testMazeParams } from './testParams';
import { walkBreak } from './breaks';
import { walkEnd } from './walks';

const MOVE_ID = { U: 9, D: 10, L: 11, R: 12 } as const;
type Move = keyof typeof MOVE_ID;

function draw(raw: Record<string, unknown>, seed = 1): MazeInstance {
  return maze.sample(makeRng(seed, STREAM.tasks), parseParams(maze, raw));
}

describe('cell notes in the prompt: startNote and goalNote', () => {
  it("startNote puts the start cell's note at the end of the prompt, the same maze and answer otherwise", () => {
    const off = draw({ size: 4, answer: 'cells' }, 5);
    const on = draw({ size: 4, answer: 'cells', startNote: 'on' }, 5);
    expect(on.grid).toEqual(off.grid);
    expect(on.answerTokens).toEqual(off.answerTokens);
    expect(on.promptTokens.slice(0, -1)).toEqual(off.promptTokens);
    // The note of S is the token a move onto S would be followed by: "r,c".
    expect(maze.vocab(on.params)[on.promptTokens[on.promptTokens.length - 1]]).toBe(`${on.start[0]},${on.start[1]}`);
    expect(on.promptTokens).toHaveLength(maze.shape(on.params).promptLength);
    expect(off.promptTokens).toHaveLength(maze.shape(off.params).promptLength);
    expect(maze.verify(on, on.answerTokens).correct).toBe(true);
    expect(() => parseParams(maze, { size: 4, startNote: 'on' })).toThrow(
      /maze\.startNote "on" needs maze\.answer "cells"/,
    );
    expect(() => parseParams(maze, { size: 4, answer: 'cells', startNote: 'yes' })).toThrow(/startNote/);
  });

  it("goalNote puts the goal cell's note last in the prompt (after the start note), the same maze and answer otherwise", () => {
    const start = draw({ size: 4, answer: 'cells', startNote: 'on' }, 5);
    const both = draw({ size: 4, answer: 'cells', startNote: 'on', goalNote: 'on' }, 5);
    const goal = draw({ size: 4, answer: 'cells', goalNote: 'on' }, 5);
    expect(both.grid).toEqual(start.grid);
    expect(both.answerTokens).toEqual(start.answerTokens);
    expect(both.promptTokens.slice(0, -1)).toEqual(start.promptTokens);
    const v = maze.vocab(both.params);
    const last = (i: typeof both, k: number) => v[i.promptTokens[i.promptTokens.length - k]];
    expect([last(both, 2), last(both, 1)]).toEqual([
      `${both.start[0]},${both.start[1]}`,
      `${both.goal[0]},${both.goal[1]}`,
    ]);
    expect(last(goal, 1)).toBe(`${goal.goal[0]},${goal.goal[1]}`);
    expect(v[goal.promptTokens[goal.promptTokens.length - 2]]).toBe('<sep>');
    for (const i of [both, goal]) {
      expect(i.promptTokens).toHaveLength(maze.shape(i.params).promptLength);
      expect(maze.verify(i, i.answerTokens).correct).toBe(true);
    }
    expect(maze.shape(both.params).promptLength).toBe(maze.shape(start.params).promptLength + 1);
    expect(() => parseParams(maze, { size: 4, goalNote: 'on' })).toThrow(
      /maze\.goalNote "on" needs maze\.answer "cells"/,
    );
  });
});

describe('answer = cells: each move followed by the cell it reached', () => {
  const grid = ['S..', '.#.', '..G'];
  const inst = maze.fromJSON({ task: 'maze', params: { size: 3, answer: 'cells' }, grid });
  const note = (r: number, c: number): number => maze.vocab(inst.params).indexOf(`${r},${c}`);
  const MOVES = { U: 9, D: 10, L: 11, R: 12 } as const;

  it('has a note token for every cell of the largest grid, twice the room, and a reference answer with true notes', () => {
    expect(maze.vocab(inst.params)).toHaveLength(13 + 100);
    expect(inst.completionLength).toBe(2 * 9 + 1);
    expect(maze.shape(inst.params).completionLength).toBe(19);
    // The first shortest path (U, D, L, R order) is DDRR.
    expect(inst.answerTokens).toEqual([
      MOVES.D,
      note(1, 0),
      MOVES.D,
      note(2, 0),
      MOVES.R,
      note(2, 1),
      MOVES.R,
      note(2, 2),
      EOS,
    ]);
    expect(maze.verify(inst, inst.answerTokens)).toMatchObject({ reward: 1, correct: true });
  });

  it('scores the moves only: wrong notes keep the walk correct and lower the cell alignment', () => {
    const wrongNotes = [MOVES.D, note(0, 0), MOVES.D, note(0, 0), MOVES.R, note(2, 1), MOVES.R, note(2, 2), EOS];
    expect(maze.verify(inst, wrongNotes).correct).toBe(true);
    expect(maze.groupMetrics?.(inst, [inst.answerTokens, wrongNotes])).toMatchObject({
      cell_alignment: 6 / 8,
      distinct_correct_paths: 1,
    });
    // A move where a note belongs is a note (ignored); a note where a move belongs breaks the walk.
    expect(maze.verify(inst, [note(1, 0), MOVES.D, EOS]).details.broken).toBe('badtoken');
  });

  it('base walks carry true notes and stay legal', () => {
    const rng = makeRng(5, STREAM.tasks);
    for (let i = 0; i < 30; i++) {
      const w = maze.baseCompletion!(rng, inst);
      expect(w.length % 2).toBe(1);
      expect(maze.verify(inst, w).details.broken).toBeNull();
      expect(maze.groupMetrics?.(inst, [w]).cell_alignment).toBe(1);
    }
  });
});

// The move budget's mazes (their tests are below).
// 3×3: budget 9 moves; answer = moves has 3² + 1 = 10 slots. Grid walks keep their parity, so a
// walk to G one move away makes an odd number of moves and to G two moves away an even number.
const near = maze.fromJSON({ task: 'maze', params: testMazeParams(), grid: ['SG.', '...', '...'] });
const far = maze.fromJSON({ task: 'maze', params: testMazeParams(), grid: ['S.G', '...', '...'] });
const ids = (path: string): number[] => [...path].map((m) => MOVE_ID[m as Move]);
const DOT = 5; // the "." cell token: no move and no end
// The same two mazes with answer = cells.
const cells = maze.fromJSON({
  task: 'maze',
  params: testMazeParams({ answer: 'cells' }),
  grid: ['SG.', '...', '...'],
});
const farCells = maze.fromJSON({
  task: 'maze',
  params: testMazeParams({ answer: 'cells' }),
  grid: ['S.G', '...', '...'],
});

/** A walk from S at (0, 0) in the cells mazes: each move followed by the note of the cell it reached. */
function withNotes(path: string): number[] {
  const note = (r: number, c: number): number => maze.vocab(cells.params).indexOf(`${r},${c}`);
  let [r, c] = [0, 0];
  return [...path].flatMap((m) => {
    const [dr, dc] = MOVE_DELTAS[MOVE_NAMES.indexOf(m as Move)];
    [r, c] = [r + dr, c + dc];
    return [MOVE_ID[m as Move], note(r, c)];
  });
}

describe("the move budget: at most n² moves, and the last slot is the end token's", () => {
  it('has room for exactly n² moves and the end token', () => {
    expect(near.completionLength).toBe(10);
    expect(near).toMatchObject({ shortest: 1 });
    expect(far).toMatchObject({ shortest: 2 });
  });

  it('9 moves then the end token in the last slot: right on G, wrong elsewhere', () => {
    const onG = ids('DUDUDUDUR'); // 8 moves back and forth, then R onto G at (0,1)
    expect(maze.verify(near, [...onG, EOS])).toMatchObject({
      reward: 1,
      correct: true,
      details: { steps: 9, broken: null },
    });
    const offG = ids('DUDUDUDUD'); // 9 moves, ends at (1,0)
    expect(maze.verify(near, [...offG, EOS])).toMatchObject({
      reward: 0,
      correct: false,
      details: { steps: 9, broken: null, end: [1, 0] },
    });
    // Tokens past the region are not read: the end token in slot 10 closes the walk.
    expect(maze.verify(near, [...onG, EOS, MOVE_ID.D, MOVE_ID.D]).correct).toBe(true);
  });

  it('no end token: move 10 fills the last slot and is wrong, even on G', () => {
    const tenOnG = ids('DUDUDUDURR'); // 10 legal moves, the 10th onto G at (0,2)
    expect(tenOnG).toHaveLength(far.completionLength);
    expect(maze.verify(far, tenOnG)).toMatchObject({
      reward: 0,
      correct: false,
      details: { steps: 9, broken: 'overbudget', end: [0, 1] },
    });
    // The same walk with the end token after it: move 10 is in the last slot, the end token past the region.
    expect(maze.verify(far, [...tenOnG, EOS]).details.broken).toBe('overbudget');
    // 9 moves onto G, then no end token: the last slot holds a token that is not the end.
    expect(maze.verify(near, [...ids('DUDUDUDUR'), DOT])).toMatchObject({
      correct: false,
      details: { steps: 9, broken: 'overbudget' },
    });
    // One move shorter, the end token where it belongs: right.
    expect(maze.verify(far, [...ids('DUDUDURR'), EOS]).correct).toBe(true);
    expect(maze.errorSignature(far, tenOnG)).toBe('overbudget');
  });

  it('progress reward: a walk past the budget scores as one that broke where move 10 began', () => {
    const r = maze.verify(
      maze.fromJSON({ task: 'maze', params: testMazeParams({ reward: 'progress' }), grid: ['S.G', '...', '...'] }),
      ids('DUDUDUDURR'),
    );
    // It stood on (0,1), one move from G (of 2), and broke: 1 − (1 + 0.5) / 2.
    expect(r.reward).toBeCloseTo(0.25, 12);
  });

  it('the first-failure report, the drawn walk and the group metrics agree', () => {
    const tenOnG = ids('DUDUDUDURR');
    expect(walkBreak(far, tenOnG)).toMatchObject({ kind: 'wrong-turn', move: 0, correct: false }); // D first: off the shortest path
    expect(walkBreak(far, [...ids('DUDUDURR'), EOS])).toMatchObject({ kind: 'wrong-turn', correct: true });
    const vocab = maze.vocab(far.params);
    const end = walkEnd(far, vocab, tenOnG, 0);
    expect(end.outcome).toBe('overbudget');
    expect(end.failure).toMatchObject({
      at: [0, 1],
      c: 9,
      why: 'made move 10, past the 9-move budget, at row 1, column 2',
    });
    expect(maze.groupMetrics?.(far, [tenOnG])).toMatchObject({ distinct_correct_paths: 0 });
  });

  it("answer = cells: 9 moves and their notes fill 18 of 19 slots; the 19th is the end's", () => {
    expect(cells.completionLength).toBe(19);
    const nine = withNotes('DUDUDUDUR');
    expect(nine).toHaveLength(18);
    expect(maze.verify(cells, [...nine, EOS]).correct).toBe(true);
    // The end token in the 9th note's slot ends the walk too.
    expect(maze.verify(cells, [...nine.slice(0, 17), EOS]).correct).toBe(true);
    // A 10th move in the last slot (onto G, two away): wrong.
    const ten = [...withNotes('DUDUDUDUR'), MOVE_ID.R];
    expect(ten).toHaveLength(19);
    expect(maze.verify(farCells, ten)).toMatchObject({ correct: false, details: { broken: 'overbudget' } });
    expect(walkBreak(farCells, ten).correct).toBe(false);
    // Any other token in the last slot: wrong too.
    expect(maze.verify(cells, [...nine, DOT]).details.broken).toBe('overbudget');
  });
});
