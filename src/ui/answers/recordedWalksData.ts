// The "ways to G" view as plain data: one recorded maze, one model's distinct correct walks drawn
// on it (the most taken thickest and darkest), and a caption in words. The walks come from a
// recorded walks file (src/tasks/maze/recorded-walks.ts).

import { pathOffset, walkCells, type RecordedMaze, type RecordedModel } from '../../tasks/maze';
import type { MazeData, MazeWalk } from './mazeData';
import { walkColour } from './mazeData';

/** At most this many walks are drawn on one board (the most taken); the caption counts them all. */
export const MAX_DRAWN_WALKS = 12;

export interface WaysData {
  board: MazeData;
  /** Sampled walks that reached G, of walksPerMaze. */
  reached: number;
  distinct: number;
  /** Distinct shortest paths found, of maze.shortestPaths. */
  shortestFound: number;
  drawn: number;
  caption: string;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** Maze `b` with model `model`'s distinct correct walks. */
export function waysData(maze: RecordedMaze, model: RecordedModel, b: number): WaysData {
  const walks = model.walks[b] ?? [];
  const drawnWalks = walks.slice(0, MAX_DRAWN_WALKS);
  const most = Math.max(1, ...drawnWalks.map((w) => w.count));
  const G = model.walksPerMaze;
  const mazeWalks = drawnWalks.map((w, i): MazeWalk => {
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
      colour: walkColour(w.count, most),
      offset: pathOffset(i, drawnWalks.length, 0.6),
      weight: 0.35 + 0.9 * share,
      title: `${w.moves}: taken by ${w.count} of ${G} sampled walks${w.shortest ? ', a shortest path' : ', with a detour'}`,
    };
  });
  const reached = walks.reduce((a, w) => a + w.count, 0);
  const shortest = walks.filter((w) => w.shortest);
  const shortestFound = shortest.length;
  const drawn = drawnWalks.length;
  // How often each shortest path was taken: BODHI's question is whether RL keeps taking both of
  // two shortest paths or settles on one, which the count of distinct walks does not show.
  const taken = shortestFound > 1 ? `, taken ${shortest.map((w) => w.count).join(' / ')} times` : '';
  const caption =
    reached === 0
      ? `no walk of ${G} reached G`
      : `${reached} of ${G} walks reached G by ${plural(walks.length, 'way')}` +
        `; ${shortestFound} of ${maze.shortestPaths} shortest${taken}` +
        (drawn < walks.length ? `; the ${drawn} most taken drawn` : '');
  return {
    board: {
      grid: maze.grid,
      size: maze.grid.length,
      start: maze.start,
      goal: maze.goal,
      shortest: maze.shortest,
      shortestPaths: maze.shortestPaths,
      walks: mazeWalks,
      markers: [],
    },
    reached,
    distinct: walks.length,
    shortestFound,
    drawn,
    caption,
  };
}
