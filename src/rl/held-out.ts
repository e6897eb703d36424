// Held-out evaluation: each level's fixed prompts (their own random stream, never trained on by
// design), greedy pass@1 for the curriculum, and the periodic EvalRecord (greedy pass@1 and
// sampled pass@k).

import type { RunConfig } from '../config/config';
import { taskParamsAtLevel } from '../config/config';
import { makeRng, STREAM } from '../core/random';
import type { Task, TaskInstance } from '../tasks/types';
import type { PolicyEngine } from './engine';
import { unbiasedPassAtK } from './estimators-base';
import { aggregateTaskMetrics, passAtKCurve, type EvalRecord } from './metrics';
import { buildTemplate, rolloutShape, verifyBatch } from './rollout';

export class HeldOutEvaluator {
  /** Evaluations run so far: each draws its samples under its own key (part of a resume point). */
  evalCount = 0;
  private readonly prompts = new Map<number, TaskInstance[]>();

  constructor(private readonly config: RunConfig, private readonly task: Task, private readonly engine: PolicyEngine, private readonly invTemp: number) {}

  /**
   * The fixed held-out prompts of a level. A larger `count` extends the same list: the first
   * evalPrompts prompts are always the same.
   */
  heldOutPrompts(level: number, count = this.config.evalPrompts): TaskInstance[] {
    let set = this.prompts.get(level);
    if (!set || set.length < count) {
      const rng = makeRng(this.config.seed, STREAM.heldOut + 1000 * level);
      const params = taskParamsAtLevel(this.config, level);
      set = Array.from({ length: count }, () => this.task.sample(rng, params));
      this.prompts.set(level, set);
    }
    return set.length === count ? set : set.slice(0, count);
  }

  /** Greedy pass@1 on the held-out prompts of a level. */
  async greedyPassRate(level: number): Promise<number> {
    const instances = this.heldOutPrompts(level);
    const shape = rolloutShape(instances, 1);
    const greedy = await this.engine.sample(buildTemplate(instances, shape), shape.N, shape.T,
      { seed: this.config.seed >>> 0, step: 0x7fffffff, invTemp: 1, topK: 1 });
    const v = verifyBatch(this.task, instances, greedy.tokens, shape);
    return v.correct.reduce((a, b) => a + b, 0) / instances.length;
  }

  /**
   * Greedy pass@1 and sampled pass@k (k = evalK over G samples) on the first `count` held-out
   * prompts of a level, recorded at `step`.
   */
  async evaluate(step: number, level: number, count = this.config.evalPrompts): Promise<EvalRecord> {
    const c = this.config;
    const instances = this.heldOutPrompts(level, count);
    const key = (0x40000000 + this.evalCount++) >>> 0;
    const greedyShape = rolloutShape(instances, 1);
    const greedy = await this.engine.sample(buildTemplate(instances, greedyShape), greedyShape.N, greedyShape.T,
      { seed: c.seed >>> 0, step: key, invTemp: 1, topK: 1 });
    const gv = verifyBatch(this.task, instances, greedy.tokens, greedyShape);
    const G = c.groupSize;
    const shape = rolloutShape(instances, G);
    const sampled = await this.engine.sample(buildTemplate(instances, shape), shape.N, shape.T,
      { seed: c.seed >>> 0, step: key, invTemp: this.invTemp, topK: c.topK });
    const sv = verifyBatch(this.task, instances, sampled.tokens, shape);
    const k = Math.min(c.evalK, G);
    let passK = 0;
    for (let b = 0; b < shape.B; b++) {
      let correct = 0;
      for (let g = 0; g < G; g++) correct += sv.correct[b * G + g];
      passK += unbiasedPassAtK(G, correct, k);
    }
    const curve = passAtKCurve(sv.correct, shape.B, G);
    return {
      step, level, prompts: instances.length,
      'eval/pass@1_greedy': gv.correct.reduce((a, b) => a + b, 0) / instances.length,
      'eval/pass@k': passK / shape.B,
      'eval/pass@1_sampled': curve[0],
      k,
      taskMetrics: aggregateTaskMetrics(gv.groupMetrics),
    };
  }
}
