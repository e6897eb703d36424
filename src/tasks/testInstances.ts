// Test fixtures shared by the task tests and the page's tests (test-only; the library never
// imports this): a hand-made instance of a task from what is its own.

import type { Task, TaskInstance, TaskParams } from './types';

/**
 * The instance of `task` with these parameters (the rest default) and this core data (the fields
 * its fromJSON reads: a subsetsum's numbers and target, a maze's grid), e.g.
 * `instanceFrom(subsetsumTask, { count: 4 }, { numbers: [1, 2, 3, 4], target: 5 })`.
 */
export function instanceFrom<P extends TaskParams, I extends TaskInstance>(
  task: Task<P, I>,
  params: Partial<P>,
  core: Record<string, unknown>,
): I {
  return task.fromJSON({ task: task.name, params, ...core });
}
