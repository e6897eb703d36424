// maze: walk from S to G on a grid maze with moves U, D, L, R.
//
// Prompt: BOS, the grid row by row (one token per cell: # wall, . open, S start, G goal) with "|"
// between rows, SEP (with startNote on, then the start cell's note "r,c"; with goalNote on, then
// the goal cell's note). Completion: moves
// (U = row-1, D = row+1, L = col-1, R = col+1), each followed by its cell's note with answer
// cells, then EOS.

import type { Rng } from '../../core/random';
import { MOVE_DELTAS, generateMaze, shortestPaths } from './gen';
import { MAZE_METRICS, mazeDisplay } from './display';
import { defineTask, type InstanceBody } from '../defineTask';
import { enumParam, intParam } from '../params';
import { withSpecials } from '../tokens';
import {
  BOS,
  SEP,
  TaskInstanceError,
  TaskParamError,
  type ParamSpec,
  type SequenceShape,
  type Task,
  type VerifyResult,
} from '../types';
import {
  answerOf,
  boardOf,
  moveBudget,
  shortestMoves,
  stepCell,
  CELL_ID,
  CELL_NOTES,
  cellNote,
  legalMoves,
  MAZE_TOKENS,
  MAX_MAZE_DIST,
  moveSlots,
  ROW_SEP,
  rowsOf,
  stride,
  type Board,
  type MazeInstance,
  type MazeParams,
} from './board';
import { wallWalk } from './wall';
import { judge, pathText, walk } from './judge';
import { mazeBranchingReport, mazeBreaks } from './diagnose';
import { simpson } from './branching';

export * from './board';

export const MAZE_PARAMS: readonly ParamSpec[] = [
  intParam('size', 5, [3, 10], 'Grid side n: the maze is n×n cells.'),
  intParam(
    'braid',
    0,
    [0, 16],
    'Extra wall cells opened after carving a perfect maze; each closes a loop, and with braid ≥ 1 start and goal are chosen so that several shortest paths exist.',
  ),
  intParam('minDist', 4, [1, 18], 'Minimum shortest-path distance from start to goal, at most 2·(size−1).'),
  intParam(
    'maxDist',
    MAX_MAZE_DIST,
    [1, MAX_MAZE_DIST],
    `Maximum shortest-path distance from start to goal (${MAX_MAZE_DIST}: no bound). The easy end of a curriculum: below minDist, the distance is anything from 1 to maxDist (level 1: the goal one move away; level 2: one or two), so the walk must stop where the goal is, not after a count of moves.`,
  ),
  intParam(
    'nearGoals',
    0,
    [0, 100],
    'Percent of the mazes whose goal may be nearer than minDist at every level: for them the distance is anything from 1 to maxDist. 0: nearer goals only while maxDist < minDist. A level whose one distance is minDist (maxDist = minDist) otherwise teaches a count of moves: a walk that stops after it, not at the goal.',
  ),
  enumParam(
    'reward',
    ['binary', 'shortest', 'progress'],
    'binary: 1 iff the walk ends on the goal without entering a wall or leaving the grid; shortest: 1 for a shortest path, 0.5 for a longer valid one; progress: 1 − remaining shortest distance / initial distance (dense).',
  ),
  enumParam(
    'answer',
    ['moves', 'cells'],
    'moves: the answer is the moves, then the end token. cells: after each move the policy writes the cell it reached (a token "r,c"), the maze analogue of writing the running product in a group chain: a scratchpad the verifier does not score, which the reference answers and the base walks fill in truly.',
  ),
  enumParam(
    'startNote',
    ['off', 'on'],
    'on: the prompt ends with the start cell\'s note "r,c" (answer cells only), so the first move, like every later one, follows a note of where the walk is. off: the first move must find S in the grid itself; there most walks of the models measured so far went wrong (docs/results.md).',
  ),
  enumParam(
    'goalNote',
    ['off', 'on'],
    'on: the prompt ends with the goal cell\'s note "r,c" (after the start note, if any; answer cells only), so "am I at G?" is the last note written against this one, a token match. off: the walk must find G in the grid. Measured on one seed (docs/results.md): no gain over the start note alone, and more first moves into walls, since the first move then follows G\'s note, not a note of where the walk is.',
  ),
  enumParam(
    'solution',
    ['shortest', 'right-hand'],
    "The reference answer, what sftData = answers trains on (the verifier pays any walk that ends on G either way). shortest: a shortest path. right-hand: the walk that keeps the right hand on the wall until it stands on G, a walk that needs no plan (a shortest path where that walk does not arrive within the move budget: 4% of whole 5×5 mazes, and with braid loops it may circle). Told the right-hand walk for 4,000 supervised steps, the maze presets' model ends on G in 0.83–0.97 of whole 5×5 mazes (4 seeds); told the shortest path it stopped at 0.59 (the maze-5x5 lesson; docs/results.md).",
  ),
  enumParam(
    'baseWalk',
    ['random', 'right-hand', 'either-hand'],
    "The base model's walks (what sftData = base trains on; none looks at the goal, each runs from 1 to n² moves, through G and on). random: each move uniform among the legal ones. right-hand: keep the right hand on the wall, a walk that needs no plan (on 5×5 mazes it reaches G within the move budget in 96% of mazes). either-hand: the same with a hand drawn per walk; the model must then tell from the walk so far which hand it keeps, and measured on 5×5 it mostly could not (docs/results.md).",
  ),
];

function checkParams(p: MazeParams): void {
  for (const knob of ['startNote', 'goalNote'] as const) {
    if (p[knob] === 'on' && p.answer !== 'cells') {
      throw new TaskParamError(
        knob,
        `maze.${knob} "on" needs maze.answer "cells" (the note is a cell token of that answer's vocabulary), got answer "${p.answer}"`,
      );
    }
  }
  const max = 2 * (p.size - 1);
  if (p.minDist > max) {
    throw new TaskParamError(
      'minDist',
      `maze.minDist must be an integer in [1, 2·(size−1)] = [1, ${max}] for size ${p.size}, got ${p.minDist}`,
    );
  }
}

function shape(p: MazeParams): SequenceShape {
  // Moves budget n²: room for any simple path and for detours (each with its note in the cells answer).
  const notes = (p.startNote === 'on' ? 1 : 0) + (p.goalNote === 'on' ? 1 : 0);
  return { promptLength: p.size * p.size + p.size + 1 + notes, completionLength: stride(p) * p.size * p.size + 1 };
}

const vocab = (p: MazeParams): string[] =>
  withSpecials(p.answer === 'cells' ? [...MAZE_TOKENS, ...CELL_NOTES] : MAZE_TOKENS);

/** One shortest path as move indices: from start, always the first move (U, D, L, R) that gets closer. */
function firstShortestPath(board: Board, distToGoal: Int32Array): number[] {
  const moves: number[] = [];
  let cell = board.start;
  while (cell !== board.goal) {
    const m = shortestMoves(board, distToGoal, cell)[0];
    moves.push(m);
    cell = stepCell(board.size, cell, m);
  }
  return moves;
}

/** The reference walk: a shortest path, or (solution right-hand) the right-hand wall walk to G where it arrives within the n² budget. */
function solutionWalk(params: MazeParams, board: Board, distToGoal: Int32Array): number[] {
  if (params.solution === 'right-hand') {
    const budget = moveBudget(board);
    const walk = wallWalk(board, budget, 'right', true);
    let cell = board.start;
    for (const m of walk) cell = stepCell(board.size, cell, m);
    if (cell === board.goal) return walk;
  }
  return firstShortestPath(board, distToGoal);
}

/** The prompt, the reference answer and the distances, from the board. */
function build(params: MazeParams, board: Board): InstanceBody<MazeInstance> {
  const { size } = board;
  const grid = rowsOf(board);
  const fromGoal = shortestPaths(board.open, size, board.goal);
  const promptTokens = [BOS];
  grid.forEach((row, r) => {
    if (r > 0) promptTokens.push(ROW_SEP);
    for (const ch of row) promptTokens.push(CELL_ID[ch]);
  });
  promptTokens.push(SEP);
  if (params.startNote === 'on') promptTokens.push(cellNote(board.start, size));
  if (params.goalNote === 'on') promptTokens.push(cellNote(board.goal, size));
  return {
    promptTokens,
    answerTokens: answerOf(params, board, solutionWalk(params, board, fromGoal.dist)),
    grid,
    start: [Math.floor(board.start / size), board.start % size],
    goal: [Math.floor(board.goal / size), board.goal % size],
    shortest: fromGoal.dist[board.start],
    shortestPaths: fromGoal.count[board.start],
  };
}

function draw(rng: Rng, params: MazeParams): Board {
  const m = generateMaze(rng, params.size, params.braid, params.minDist, params.maxDist, params.nearGoals / 100);
  return { size: params.size, ...m };
}

/** Reads the grid rows (the core data); start, goal and distances are recomputed. */
function boardFromGrid(raw: unknown, size: number): Board {
  const field = 'instance.grid';
  if (!Array.isArray(raw) || raw.length !== size) {
    throw new TaskInstanceError(field, `${field} must be an array of ${size} strings (params.size)`);
  }
  const open: boolean[] = [];
  let start = -1;
  let goal = -1;
  raw.forEach((row, r) => {
    if (typeof row !== 'string' || !new RegExp(`^[#.SG]{${size}}$`).test(row)) {
      throw new TaskInstanceError(
        `${field}[${r}]`,
        `${field}[${r}] must be a string of ${size} characters from "#", ".", "S", "G", got ${JSON.stringify(row)}`,
      );
    }
    for (const ch of row) {
      const cell = open.length;
      if (ch === 'S') {
        if (start >= 0) throw new TaskInstanceError(field, `${field} must contain exactly one "S"`);
        start = cell;
      }
      if (ch === 'G') {
        if (goal >= 0) throw new TaskInstanceError(field, `${field} must contain exactly one "G"`);
        goal = cell;
      }
      open.push(ch !== '#');
    }
  });
  if (start < 0 || goal < 0) throw new TaskInstanceError(field, `${field} must contain one "S" and one "G"`);
  if (shortestPaths(open, size, start).dist[goal] < 0) {
    throw new TaskInstanceError(field, `${field}: the goal cannot be reached from the start`);
  }
  return { size, open, start, goal };
}

// ---- Walking a completion ----

/** overbudget: move n² + 1 (the slot that must hold the end token holds a token, docs/tasks.md). */
function verify(instance: MazeInstance, completion: readonly number[]): VerifyResult {
  const j = judge(instance, completion);
  const d0 = instance.shortest;
  let reward: number;
  if (instance.params.reward === 'binary') reward = j.correct ? 1 : 0;
  else if (instance.params.reward === 'shortest') reward = j.isShortest ? 1 : j.correct ? 0.5 : 0;
  else {
    // A walk that breaks counts as stopping half a step further away, so only a clean arrival earns 1.
    const remaining = (j.remaining < 0 ? d0 : j.remaining) + (j.walk.broken ? 0.5 : 0);
    reward = Math.max(0, 1 - remaining / d0);
  }
  const size = instance.params.size;
  return {
    reward,
    correct: j.correct,
    details: {
      steps: j.walk.moves.length,
      shortest: d0,
      end: [Math.floor(j.walk.end / size), j.walk.end % size],
      broken: j.walk.broken,
      remaining: j.remaining,
    },
  };
}

/**
 * The base model's walk: a length drawn uniformly from 1 to the move budget; each move uniform
 * among the legal ones (baseWalk random), or along the wall with the right hand or with a hand
 * drawn per walk.
 * It never hits a wall or leaves the grid and never looks at the goal, so a model trained on it
 * learns to read the grid and track where it is, not to solve the maze.
 */
function baseCompletion(rng: Rng, instance: MazeInstance): number[] {
  const board = boardOf(instance);
  const budget = moveBudget(board);
  if (instance.params.baseWalk !== 'random') {
    const hand = instance.params.baseWalk === 'right-hand' || rng.int(2) === 0 ? 'right' : 'left';
    return answerOf(instance.params, board, wallWalk(board, 1 + rng.int(budget), hand, false));
  }
  const length = 1 + rng.int(budget);
  const moves: number[] = [];
  let cell = board.start;
  for (let i = 0; i < length; i++) {
    const options = legalMoves(board, cell);
    if (options.length === 0) break;
    const m = options[rng.int(options.length)];
    moves.push(m);
    cell += MOVE_DELTAS[m][0] * board.size + MOVE_DELTAS[m][1];
  }
  return answerOf(instance.params, board, moves);
}

function groupMetrics(instance: MazeInstance, completions: readonly (readonly number[])[]): Record<string, number> {
  const correctPaths = new Set<string>();
  // Every shortest correct walk, repeats kept: how evenly the group spreads over them (Simpson).
  const shortestWalks: string[] = [];
  let correct = 0;
  let walled = 0;
  for (const c of completions) {
    const j = judge(instance, Array.isArray(c) ? c : []);
    if (j.walk.broken === 'wall' || j.walk.broken === 'offgrid') walled++;
    if (!j.correct) continue;
    correct++;
    if (j.isShortest) shortestWalks.push(pathText(j.walk));
    correctPaths.add(pathText(j.walk));
  }
  const distinctShortest = new Set(shortestWalks).size;
  const out: Record<string, number> = {
    distinct_correct_paths: correctPaths.size,
    // BODHI: how many ways to G the group keeps among its shortest walks, how much of the maze's
    // set of shortest paths it covers, and how often it breaks the rules.
    distinct_shortest_paths: distinctShortest,
    shortest_paths_found: distinctShortest / Math.max(1, instance.shortestPaths),
    wall_or_edge: walled / Math.max(1, completions.length),
  };
  if (correct > 0) out.shortest_fraction = shortestWalks.length / correct;
  // No shortest walk, no spread to measure (Simpson of none is NaN): omitted.
  if (shortestWalks.length > 0) out.shortest_simpson = simpson(shortestWalks);
  if (instance.params.answer === 'cells') out.cell_alignment = cellAlignment(instance, completions);
  return out;
}

/**
 * answer = cells: the share of notes, after the moves a walk followed, that name the cell the
 * move reached (the scratchpad computing the real thing, as cot_alignment for group chains).
 */
function cellAlignment(instance: MazeInstance, completions: readonly (readonly number[])[]): number {
  const board = boardOf(instance);
  let right = 0;
  let notes = 0;
  for (const c of completions) {
    const completion = Array.isArray(c) ? c : [];
    const w = walk(board, instance, completion);
    const written = moveSlots(instance, completion).notes;
    let cell = board.start;
    w.moves.forEach((m, i) => {
      cell += MOVE_DELTAS[m][0] * board.size + MOVE_DELTAS[m][1];
      notes++;
      if (written[i] === cellNote(cell, board.size)) right++;
    });
  }
  return notes > 0 ? right / notes : 0;
}

/** The path as a move string, e.g. "RRDL" (up to where it breaks). */
function signature(instance: MazeInstance, completion: readonly number[]): string {
  return pathText(judge(instance, completion).walk);
}

/** "wall", "offgrid", "badtoken", or "stopped@r,c" for a legal walk that ends off the goal. */
function errorSignature(instance: MazeInstance, completion: readonly number[]): string {
  const j = judge(instance, completion);
  if (j.correct) return 'correct';
  if (j.walk.broken) return j.walk.broken;
  const size = instance.params.size;
  return `stopped@${Math.floor(j.walk.end / size)},${j.walk.end % size}`;
}

/**
 * The split's keys: the grid alone (S and G as open cells), so that a tenth of the grids is
 * never trained on, and the grid with S and G. Neither depends on the answer's or the
 * prompt's format (notes, cells), so a maze is held out under every setting.
 */
function splitKeys(inst: MazeInstance): Record<string, string> {
  const instance = inst.grid.join('/');
  return { grid: instance.replace(/[SG]/g, '.'), instance };
}

export const mazeTask: Task<MazeParams, MazeInstance> = defineTask({
  name: 'maze',
  summary: 'Grid mazes: write the moves from S to G; binary, shortest-path or dense progress reward.',
  params: MAZE_PARAMS,
  baseLesson: 'learns to walk',
  display: mazeDisplay,
  metrics: MAZE_METRICS,
  checkParams,
  vocab,
  shape,
  // The core data is the board; its JSON keeps the grid rows.
  instances: { draw, read: (json, p) => boardFromGrid(json.grid, p.size), build },
  verify,
  groupMetrics,
  signature,
  errorSignature,
  baseCompletion,
  splitKeys,
  breaks: mazeBreaks,
  branching: mazeBranchingReport,
});
