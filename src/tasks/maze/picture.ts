// The maze's pictures (Task.display.picture): a group's walks on the board, each as the verifier
// reads it (walks.ts: its path, how it ended), toned by its advantage and offset so that walks
// along one corridor stay apart, with the end markers once the verifier has judged; and a recorded
// walks file (recorded-walks.ts) read for the page's "ways to G", one model's distinct correct walks
// on one maze, the most taken thickest.

import { pathOffset } from './paths';
import { mazeMarkers, walkEnd } from './walks';
import {
  parseRecordedWalks,
  walkCells,
  type RecordedMaze,
  type RecordedModel,
  type RecordedWalks,
} from './recorded-walks';
import type { MazeInstance } from './board';
import type {
  BoardPicture,
  BoardWalk,
  PictureAnswers,
  RecordedAnswers,
  RecordedPicture,
  RecordedPictures,
} from '../picture';
import type { PictureHook } from '../types';

/**
 * A walk's tone from its sequence advantage A: A over the group's bound, in [−1, 1]; undefined
 * (grey) for A = 0, not computed yet, or no bound.
 */
export function advantageTone(advantage: number | undefined, bound: number): number | undefined {
  if (advantage === undefined || !Number.isFinite(advantage) || Math.abs(advantage) < 1e-9 || !(bound > 0))
    return undefined;
  return Math.max(-1, Math.min(1, advantage / bound));
}

/** The board as a picture: the maze and its walks (and markers, once judged). */
function board(maze: RecordedMaze | MazeInstance, walks: BoardWalk[], markers: BoardPicture['markers']): BoardPicture {
  return {
    grid: [...maze.grid],
    size: maze.grid.length,
    start: maze.start,
    goal: maze.goal,
    shortest: maze.shortest,
    shortestPaths: maze.shortestPaths,
    walks,
    markers,
  };
}

/** Everything the maze board and its rows draw, for one group. */
export function boardPicture(inst: MazeInstance, answers: PictureAnswers): BoardPicture {
  const { G } = answers;
  const walks = Array.from({ length: G }, (_, g): BoardWalk => {
    const advantage = answers.advantage(g);
    return {
      ...walkEnd(inst, answers.vocab, answers.completion(g), g),
      correct: answers.correct(g),
      advantage,
      tone: advantageTone(advantage, answers.advantageBound),
      offset: pathOffset(g, G),
    };
  });
  const verified = walks.every((w) => w.correct !== null);
  return board(inst, walks, verified ? mazeMarkers(inst, walks) : []);
}

/** At most this many walks are drawn on one board (the most taken); the caption counts them all. */
export const MAX_DRAWN_WALKS = 12;

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** Maze `b` with model `model`'s distinct correct walks, and a caption in words. */
export function waysPicture(maze: RecordedMaze, model: RecordedModel, b: number): RecordedPicture {
  const walks = model.walks[b] ?? [];
  const drawnWalks = walks.slice(0, MAX_DRAWN_WALKS);
  const most = Math.max(1, ...drawnWalks.map((w) => w.count));
  const G = model.walksPerMaze;
  const boardWalks = drawnWalks.map((w, i): BoardWalk => {
    const cells = walkCells(maze.start, w.moves);
    const share = w.count / most;
    return {
      // Drawn in order of g: the most taken last, on top.
      g: drawnWalks.length - 1 - i,
      path: { cells, moves: w.moves, broken: null, stop: w.moves.length },
      outcome: 'goal',
      failure: null,
      summary: `${w.moves}: ${w.count} of ${G} walks${w.shortest ? ' (a shortest path)' : ''}`,
      correct: true,
      advantage: undefined,
      tone: advantageTone(w.count, most),
      offset: pathOffset(i, drawnWalks.length, 0.6),
      weight: 0.35 + 0.9 * share,
      title: `${w.moves}: taken by ${w.count} of ${G} sampled walks${w.shortest ? ', a shortest path' : ', with a detour'}`,
    };
  });
  const reached = walks.reduce((a, w) => a + w.count, 0);
  const shortest = walks.filter((w) => w.shortest);
  const drawn = drawnWalks.length;
  // How often each shortest path was taken: BODHI's question is whether RL keeps taking both of
  // two shortest paths or settles on one, which the count of distinct walks does not show.
  const taken = shortest.length > 1 ? `, taken ${shortest.map((w) => w.count).join(' / ')} times` : '';
  const caption =
    reached === 0
      ? `no walk of ${G} reached G`
      : `${reached} of ${G} walks reached G by ${plural(walks.length, 'way')}` +
        `; ${shortest.length} of ${maze.shortestPaths} shortest${taken}` +
        (drawn < walks.length ? `; the ${drawn} most taken drawn` : '');
  return { board: board(maze, boardWalks, []), reached, distinct: walks.length, caption };
}

const f2 = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : '–');

/** The numbers over all the mazes: pass@1, pass@G, and the distinct ways (at a matched count when recorded). */
export function waysSummary(
  base: RecordedModel,
  trained: RecordedModel,
  mazes: number,
): ReturnType<RecordedAnswers['summary']> {
  const head =
    `Over all ${mazes} mazes: pass@1 ${f2(base.passAt1)} → ${f2(trained.passAt1)}, ` +
    `pass@${base.walksPerMaze} ${f2(base.passAtG)} → ${f2(trained.passAtG)}.`;
  const [a, z] = [base.branching, trained.branching];
  if (a && z)
    // BODHI's measures: the share of the shortest paths a model takes at all, then the ways at a
    // matched count (the first k shortest or correct walks of each maze, so that a model with more
    // walks on G is not credited with more ways), with how many mazes that count rests on.
    return {
      head,
      matched: true,
      detail:
        `Shortest paths found ${f2(a.shortestFound)} → ${f2(z.shortestFound)}; among the first ${a.k} shortest ` +
        `walks of a maze (${a.matchedShortest.mazes} → ${z.matchedShortest.mazes} mazes have ${a.k}) ${f2(a.matchedShortest.distinct)} → ` +
        `${f2(z.matchedShortest.distinct)} distinct paths, evenness ${f2(a.matchedShortest.simpson)} → ` +
        `${f2(z.matchedShortest.simpson)}; among the first ${a.k} correct walks ${f2(a.matchedCorrect.distinct)} → ` +
        `${f2(z.matchedCorrect.distinct)}.`,
    };
  return {
    head,
    matched: false,
    detail:
      `Distinct ways to G ${f2(base.distinctCorrect)} → ${f2(trained.distinctCorrect)} per maze ` +
      '(a count that grows with the walks that reach G).',
  };
}

/** A recorded walks file as the page reads it. */
export function recordedAnswers(file: RecordedWalks): RecordedAnswers {
  return {
    problems: file.mazes.length,
    models: file.models.map((m) => ({ label: m.label, answersPerProblem: m.walksPerMaze })),
    picture: (m, b) => waysPicture(file.mazes[b], file.models[m], b),
    summary: (base, trained) => waysSummary(file.models[base], file.models[trained], file.mazes.length),
  };
}

const recorded: RecordedPictures = {
  read(raw) {
    const file = parseRecordedWalks(raw);
    return typeof file === 'string' ? file : recordedAnswers(file);
  },
};

export const mazePicture: PictureHook<MazeInstance> = {
  group: (inst, answers) => ({ kind: 'board', board: boardPicture(inst, answers) }),
  recorded,
};
