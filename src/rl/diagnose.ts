// A task's diagnoses on an engine: the task says what to ask of the model and what it finds
// (Task.breaks, Task.branching: src/tasks/<task>/), this gives it the model as a probe. Greedy
// answers are one topK-1 sample call, sampled ones one call at temperature 1, scores one
// teacher-forced logProbs call each.

import type { PolicyEngine } from './engine';
import { buildTemplate, rolloutShape } from './rollout';
import type { BranchingRun, PolicyProbe, Task, TaskInstance, TaskReport } from '../tasks/types';

/** The engine as a task's probe: greedy decodes at `seed` (step 0), samples at temperature 1 (step 1). */
export function engineProbe(engine: PolicyEngine, seed: number): PolicyProbe {
  const run = async (instances: readonly TaskInstance[], G: number, step: number, topK: number) => {
    const shape = rolloutShape(instances, G);
    const s = await engine.sample(buildTemplate(instances, shape), shape.N, shape.T, {
      seed: seed >>> 0,
      step,
      invTemp: 1,
      topK,
    });
    return { ...s, shape };
  };
  return {
    greedy: (instances) => run(instances, 1, 0, 1),
    sample: (instances, G) => run(instances, G, 1, 0),
    logProbs: (tokens, targets, N, T) => engine.logProbs(tokens, targets, N, T),
  };
}

/** Where the greedy answers first go wrong, or null when the task has no such report. */
export async function diagnoseBreaks(
  task: Task,
  engine: PolicyEngine,
  instances: readonly TaskInstance[],
  seed: number,
): Promise<TaskReport | null> {
  return task.breaks ? task.breaks.report(engineProbe(engine, seed), instances) : null;
}

/** How G sampled answers per prompt branch (k: the matched count), or null when the task has no such report. */
export async function diagnoseBranching(
  task: Task,
  engine: PolicyEngine,
  instances: readonly TaskInstance[],
  G: number,
  k: number,
  seed: number,
): Promise<BranchingRun | null> {
  return task.branching ? task.branching.measure(engineProbe(engine, seed), instances, G, k) : null;
}
