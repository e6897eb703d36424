// Held-out evaluation and the curriculum's check. Each level has fixed prompts drawn from one
// part of the task's train/held-out split (src/tasks/split.ts): the periodic EvalRecord
// (greedy pass@1 and sampled pass@k) and `rlvr eval` draw from the held-out part, which training
// never draws; the curriculum's check (greedy pass@1 at the current level, which decides when
// the run advances) draws fixed prompts from the train part, so no decision of a run looks at
// the held-out instances.

import type { RunConfig } from '../config/config';
import { curriculumLevels, taskParamsAtLevel } from '../config/config';
import { makeRng, STREAM } from '../core/random';
import { sampleSplit, SplitEmptyError, splitWarning, summarizeSplit, type Split } from '../tasks/split';
import type { Task, TaskInstance } from '../tasks/types';
import type { PolicyEngine } from './engine';
import { unbiasedPassAtK } from '../estimators';
import { aggregateTaskMetrics, passAtKCurve, type EvalRecord } from './step-metrics';
import { buildTemplate, rolloutShape, verifyBatch } from './rollout';

/** A level's fixed prompts, and the part of the split they came from. */
export interface PromptSet {
  instances: TaskInstance[];
  split: Split;
}

/**
 * A level's held-out prompts as a run with this config draws them (its seed, its own stream):
 * `count` held-out instances, or training instances marked split 'train' at a level with no
 * held-out instance (a space too small to split).
 */
export function drawHeldOutSet(config: RunConfig, task: Task, level: number, count: number): PromptSet {
  const params = taskParamsAtLevel(config, level);
  const draw = (split: Split): TaskInstance[] => {
    const rng = makeRng(config.seed, STREAM.heldOut + 1000 * level);
    return Array.from({ length: count }, () => sampleSplit(task, rng, params, split));
  };
  try {
    return { instances: draw('heldout'), split: 'heldout' };
  } catch (err) {
    if (!(err instanceof SplitEmptyError)) throw err;
    return { instances: draw('train'), split: 'train' };
  }
}

/**
 * Why a run's final held-out figures would not measure generalisation, or undefined when they do:
 * its last level's held-out prompts are training instances, or too few distinct ones
 * (splitWarning, src/tasks/split.ts, as `rlvr eval` reports it).
 */
export function heldOutWarning(config: RunConfig, task: Task): string | undefined {
  const level = curriculumLevels(config)[1];
  const set = drawHeldOutSet(config, task, level, config.evalPrompts);
  return splitWarning(set.split, summarizeSplit(task, set.split, set.instances).distinct, set.instances.length);
}

export class HeldOutEvaluator {
  /** Evaluations run so far: each draws its samples under its own key (part of a resume point). */
  evalCount = 0;
  private readonly heldOut = new Map<number, PromptSet>();
  private readonly checks = new Map<number, TaskInstance[]>();

  constructor(
    private readonly config: RunConfig,
    private readonly task: Task,
    private readonly engine: PolicyEngine,
    private readonly invTemp: number,
  ) {}

  /**
   * The fixed held-out prompts of a level and their split. A larger `count` extends the same
   * list: the first evalPrompts prompts are always the same. At a level with no held-out
   * instance (a space too small to split), training instances, marked split 'train'.
   */
  heldOutSet(level: number, count = this.config.evalPrompts): PromptSet {
    let set = this.heldOut.get(level);
    if (!set || set.instances.length < count) {
      set = drawHeldOutSet(this.config, this.task, level, count);
      this.heldOut.set(level, set);
    }
    return set.instances.length === count ? set : { instances: set.instances.slice(0, count), split: set.split };
  }

  /** The fixed held-out prompts of a level (see heldOutSet). */
  heldOutPrompts(level: number, count = this.config.evalPrompts): TaskInstance[] {
    return this.heldOutSet(level, count).instances;
  }

  /** The curriculum check's fixed prompts of a level: evalPrompts training instances of their own stream. */
  checkPrompts(level: number): TaskInstance[] {
    let set = this.checks.get(level);
    if (!set) {
      const rng = makeRng(this.config.seed, STREAM.curriculum + 1000 * level);
      const params = taskParamsAtLevel(this.config, level);
      set = Array.from({ length: this.config.evalPrompts }, () => sampleSplit(this.task, rng, params, 'train'));
      this.checks.set(level, set);
    }
    return set;
  }

  /** Greedy pass@1 on the curriculum check's prompts of a level (training instances). */
  async greedyPassRate(level: number): Promise<number> {
    const correct = await this.greedyCorrect(this.checkPrompts(level));
    return correct.reduce((a, b) => a + b, 0) / correct.length;
  }

  /** [B] 1 where the greedy (top-1) answer to instance b is correct. */
  async greedyCorrect(instances: readonly TaskInstance[]): Promise<Uint8Array> {
    const shape = rolloutShape(instances, 1);
    const greedy = await this.engine.sample(buildTemplate(instances, shape), shape.N, shape.T, {
      seed: this.config.seed >>> 0,
      step: 0x7fffffff,
      invTemp: 1,
      topK: 1,
    });
    return verifyBatch(this.task, instances, greedy.tokens, shape).correct;
  }

  /**
   * Greedy pass@1 and sampled pass@k (k = evalK over G samples) on the first `count` held-out
   * prompts of a level, recorded at `step`.
   */
  async evaluate(step: number, level: number, count = this.config.evalPrompts): Promise<EvalRecord> {
    const c = this.config;
    const { instances, split } = this.heldOutSet(level, count);
    const key = (0x40000000 + this.evalCount++) >>> 0;
    const greedyShape = rolloutShape(instances, 1);
    const greedy = await this.engine.sample(buildTemplate(instances, greedyShape), greedyShape.N, greedyShape.T, {
      seed: c.seed >>> 0,
      step: key,
      invTemp: 1,
      topK: 1,
    });
    const gv = verifyBatch(this.task, instances, greedy.tokens, greedyShape);
    const G = c.groupSize;
    const shape = rolloutShape(instances, G);
    const sampled = await this.engine.sample(buildTemplate(instances, shape), shape.N, shape.T, {
      seed: c.seed >>> 0,
      step: key,
      invTemp: this.invTemp,
      topK: c.topK,
    });
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
      step,
      level,
      prompts: instances.length,
      'eval/pass@1_greedy': gv.correct.reduce((a, b) => a + b, 0) / instances.length,
      'eval/pass@k': passK / shape.B,
      'eval/pass@1_sampled': curve[0],
      k,
      taskMetrics: aggregateTaskMetrics(gv.groupMetrics),
      split,
    };
  }
}
