// How the page shows a maze: moves as arrows, the prompt in words, and each walk's ending as a
// sentence once the verifier has judged it (how a walk failed is a verdict, like the ✓/✗).

import type { MetricSpec, TaskDisplay } from '../types';
import type { MazeInstance, MazeParams } from './board';
import { moveArrow, walkEnd } from './walks';
import { mazePicture } from './picture';

// The task chart draws the share of correct walks that are shortest: the binary reward pays a walk
// that detours to G as much as the shortest one, and this share shows what RL makes of that. The
// evenness of the shortest walks (BODHI's narrowing) is 0 on every perfect maze, which has one
// shortest path, so the training chart, on perfect mazes, does not draw it: the braided mazes of
// rlvr eval --branching and the ways-to-G view measure it. The counts grow with the walks that reach
// G and need another axis, so they stay in the CSV.
export const MAZE_METRICS: Readonly<Record<string, MetricSpec>> = {
  shortest_simpson: {
    name: 'shortest-walk diversity',
    unit: '0–1',
    scale: 'share',
    charted: false,
    doc: "Simpson diversity 1 − Σp² of a group's shortest correct walks (p: the share of them that took each shortest path; 0: all one path, 1 − 1/m: evenly over m); omitted for a group with none; always 0 on a perfect maze, which has one shortest path (maze; BODHI: RL narrows the ways to G, which a count of walks hides).",
  },
  distinct_shortest_paths: {
    name: 'distinct shortest paths',
    scale: 'count',
    charted: false,
    doc: "Number of different shortest paths among a group's correct walks (maze).",
  },
  distinct_correct_paths: {
    name: 'distinct correct paths',
    scale: 'count',
    charted: false,
    doc: "Number of different correct walks among a group's answers (maze); grows with the walks that reach G and with their detours.",
  },
  shortest_fraction: {
    name: 'shortest-path share',
    unit: '0–1',
    scale: 'share',
    doc: 'Share of correct walks that are shortest paths; omitted for a group with none correct (maze: the binary reward pays a detour to G as much as the shortest walk).',
  },
  shortest_paths_found: {
    name: 'shortest paths found',
    unit: '0–1',
    scale: 'share',
    charted: false,
    doc: "Distinct shortest paths among a group's correct walks ÷ the maze's shortest paths (maze; BODHI's branching: does RL narrow the paths it finds?).",
  },
  cell_alignment: {
    name: 'cell notes right',
    unit: '0–1',
    scale: 'share',
    charted: false,
    doc: 'Share of the cells written after each followed move that name the cell reached (maze with answer = cells: how much the scratchpad tracks the real position).',
  },
  wall_or_edge: {
    name: 'walks into walls',
    unit: '0–1',
    scale: 'share',
    charted: false,
    doc: "Share of a group's walks with wall or edge contact at any point: a move, anywhere before the end token, into a wall or off the grid (maze; BODHI: RL improves adherence to the walls). Not the first-failure wall rate of rlvr eval --breaks, which leaves out a wall hit after a wrong turn.",
  },
};

export const mazeDisplay: TaskDisplay<MazeParams, MazeInstance> = {
  picture: mazePicture,
  tokenWords: () => moveArrow,
  promptWords(inst) {
    const size = inst.grid.length;
    const several = inst.shortestPaths > 1 ? `, ${inst.shortestPaths} of them` : '';
    return {
      prompt: `a ${size}×${size} maze`,
      question: 'Walk from S to G.',
      answer: `shortest path ${inst.shortest} move${inst.shortest === 1 ? '' : 's'}${several}`,
    };
  },
  answerNote(inst, vocab, completion, correct) {
    if (correct === null) return null;
    const walk = walkEnd(inst, vocab, completion, 0);
    return { text: walk.summary, at: walk.failure?.c ?? null };
  },
  headlineMetric: 'task/shortest_fraction',
};
