// How the page shows a maze: moves as arrows, the prompt in words, and each walk's ending as a
// sentence once the verifier has judged it (how a walk failed is a verdict, like the ✓/✗).

import type { TaskDisplay } from '../types';
import type { MazeInstance, MazeParams } from './board';
import { moveArrow, walkEnd } from './walks';

export const mazeDisplay: TaskDisplay<MazeParams, MazeInstance> = {
  view: 'board',
  tokenWords: () => moveArrow,
  promptWords(inst) {
    const size = inst.grid.length;
    const several = inst.shortestPaths > 1 ? `, ${inst.shortestPaths} of them` : '';
    return { prompt: `a ${size}×${size} maze`, question: 'Walk from S to G.', answer: `shortest path ${inst.shortest} moves${several}` };
  },
  answerNote(inst, vocab, completion, correct) {
    if (correct === null) return null;
    const walk = walkEnd(inst, vocab, completion, 0);
    return { text: walk.summary, at: walk.failure?.c ?? null };
  },
  headlineMetric: 'task/distinct_correct_paths',
};
