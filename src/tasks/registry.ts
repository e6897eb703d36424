// The task registry: every task by its stable name.

import { groupmulTask } from './groupmul';
import { mazeTask } from './maze';
import { sortTask } from './sort';
import { subsetsumTask } from './subsetsum';
import { TaskParamError, type Task, type TaskInstance } from './types';

export const TASKS = { groupmul: groupmulTask, maze: mazeTask, sort: sortTask, subsetsum: subsetsumTask } as const;

export type TaskName = keyof typeof TASKS;

export const TASK_NAMES = Object.keys(TASKS) as TaskName[];

export function isTaskName(name: string): name is TaskName {
  return Object.prototype.hasOwnProperty.call(TASKS, name);
}

/** The task with this name; an unknown name is an error listing the allowed ones. */
export function getTask(name: string): Task {
  if (!isTaskName(name)) {
    throw new TaskParamError('task', `unknown task ${JSON.stringify(name)}; allowed: ${TASK_NAMES.join(', ')}`);
  }
  const task: Task = TASKS[name];
  return task;
}

/** Rebuilds any task's instance from JSON, dispatching on `instance.task`. */
export function instanceFromJSON(raw: unknown): TaskInstance {
  const name = raw !== null && typeof raw === 'object' ? (raw as { task?: unknown }).task : undefined;
  if (typeof name !== 'string' || !isTaskName(name)) {
    throw new TaskParamError(
      'instance.task',
      `instance.task must be one of ${TASK_NAMES.join(', ')}, got ${JSON.stringify(name)}`,
    );
  }
  return getTask(name).fromJSON(raw);
}
