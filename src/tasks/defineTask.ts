// defineTask: a Task from what is a task's own. Every task draws an instance's core data (a
// chain, a grid, letters), reads it back from JSON, and builds the rest from it; the parameter
// parsing around sample and fromJSON, the token texts and the completion template are the same
// for all and are written here once.

import type { Rng } from '../core/random';
import { asObject, instanceHeader } from './instanceJson';
import { parseParams } from './params';
import { tokensToText, totalTask } from './tokens';
import type { Task, TaskInstance, TaskParams } from './types';

/**
 * What a task's build writes: the prompt and the right answer as token ids, where the environment
 * writes (`fixed`; absent: nowhere, the policy writes the whole completion region) and the task's
 * own fields. defineTask adds the rest of TaskInstance.
 */
export type InstanceBody<I extends TaskInstance> = Omit<I, keyof TaskInstance> & {
  promptTokens: number[];
  answerTokens: number[];
  fixed?: (number | null)[];
};

/** How a task makes its instances from their core data C (what an instance's JSON must keep). */
export interface InstanceRecipe<P extends TaskParams, I extends TaskInstance, C> {
  /** Draws the core data for resolved parameters, only from `rng`. */
  draw(rng: Rng, params: P): C;
  /** Reads the core data from an instance's JSON (`params` resolved); throws TaskInstanceError naming the field. */
  read(json: Record<string, unknown>, params: P): C;
  /** The tokens and the task's own fields from the core data: shared by sample and fromJSON. */
  build(params: P, core: C): InstanceBody<I>;
}

/** A Task without sample and fromJSON, which defineTask derives from `instances`. */
export interface TaskSpec<P extends TaskParams, I extends TaskInstance, C> extends Omit<
  Task<P, I>,
  'sample' | 'fromJSON'
> {
  readonly instances: InstanceRecipe<P, I, C>;
}

/** The whole instance: the fields every task shares, then the task's own in the order its build wrote them. */
function completeInstance<P extends TaskParams, I extends TaskInstance>(
  task: Task<P, I>,
  params: P,
  body: InstanceBody<I>,
): I {
  const { promptTokens, answerTokens, fixed, ...own } = body;
  const words = task.vocab(params);
  const { completionLength } = task.shape(params);
  const shared: TaskInstance = {
    task: task.name,
    params: { ...params },
    promptTokens,
    promptText: tokensToText(words, promptTokens),
    completionLength,
    fixed: fixed ?? Array.from({ length: completionLength }, () => null),
    answerTokens,
    answerText: tokensToText(words, answerTokens),
  };
  // The body is I less the shared fields, so the two together are an I.
  return { ...shared, ...own } as unknown as I;
}

/**
 * The Task: sample parses the parameters and builds on drawn data, fromJSON checks the instance's
 * task and parameters and builds on the data it reads; verifier, metrics and labels are total (totalTask).
 */
export function defineTask<P extends TaskParams, I extends TaskInstance, C>(spec: TaskSpec<P, I, C>): Task<P, I> {
  const { instances, ...rest } = spec;
  const task: Task<P, I> = totalTask<P, I>({
    ...rest,
    sample(rng, raw) {
      const params = parseParams(task, raw);
      return completeInstance(task, params, instances.build(params, instances.draw(rng, params)));
    },
    fromJSON(raw) {
      const { obj, params: rawParams } = instanceHeader(raw, spec.name);
      const params = parseParams(task, asObject(rawParams, 'instance.params'));
      return completeInstance(task, params, instances.build(params, instances.read(obj, params)));
    },
  });
  return task;
}
