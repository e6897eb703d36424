// Where a run's prompts come from: fresh draws from the task stream, or, with MaPP, a finite
// pool drawn once from the same stream and chosen from by the posterior (docs/estimators.md).
// Every draw is from the train part of the task's split (src/tasks/split.ts): a held-out
// instance drawn is thrown away and the stream moves on.
// The task stream also draws the warm start's base completions (sftData = base).

import type { RunConfig } from '../config/config';
import { makeRng, STREAM, type Rng } from '../core/random';
import { sampleSplit } from '../tasks/split';
import type { Task, TaskInstance, TaskParams } from '../tasks/types';
import { MappPosterior } from '../estimators/mapp';

export class PromptPool {
  /** The task stream (its position is part of a resume point). */
  rng: Rng;
  /** MaPP's posterior over the pool; null for every other estimator. */
  mapp: MappPosterior | null;
  private readonly pool: TaskInstance[] = [];

  constructor(
    private readonly task: Task,
    private readonly config: RunConfig,
  ) {
    this.rng = makeRng(config.seed, STREAM.tasks);
    this.mapp = config.estimator === 'mapp' ? new MappPosterior({ uncertaintyBonus: config.mappBonus }) : null;
  }

  /** MaPP's finite prompt pool, the first draws of the task stream (a resumed run draws it again, then moves the stream on). */
  drawMappPool(params: TaskParams): void {
    if (!this.mapp) return;
    for (let i = 0; i < this.config.mappPool; i++) this.pool.push(sampleSplit(this.task, this.rng, params, 'train'));
  }

  /** The task stream continued from a saved position. */
  resumeStream(position: number): void {
    this.rng = makeRng(this.config.seed, STREAM.tasks, position);
  }

  /** B prompts: chosen from the pool by MaPP's posterior, or fresh from the task at `params`. */
  sample(B: number, params: TaskParams): TaskInstance[] {
    if (this.mapp) {
      const keys = this.pool.map((_, i) => String(i));
      return this.mapp.selectPrompts(this.rng, Math.min(B, keys.length), keys).map((k) => this.pool[Number(k)]);
    }
    return Array.from({ length: B }, () => sampleSplit(this.task, this.rng, params, 'train'));
  }

  /**
   * A copy that draws from `rng` (a preview's stream): the same pool, a copy of MaPP's
   * posterior; what it draws and observes leaves this one as it was.
   */
  detached(rng: Rng): PromptPool {
    const copy = new PromptPool(this.task, this.config);
    copy.rng = rng;
    copy.mapp = this.mapp ? MappPosterior.fromJSON(this.mapp.toJSON()) : null;
    copy.pool.push(...this.pool);
    return copy;
  }

  /** The key a prompt's statistics are kept under (its pool index with MaPP, else its text). */
  key(inst: TaskInstance): string {
    if (this.mapp) return String(this.pool.indexOf(inst));
    return inst.promptText;
  }

  /** n fresh prompts, each with what the warm start trains on as its answer (sftData). */
  warmStartInstances(n: number, params: TaskParams): TaskInstance[] {
    const instances = this.sample(n, params);
    if (this.config.sftData !== 'base') return instances;
    // Checked with the config: sftData = base needs a task that defines base completions.
    return instances.map((inst) => ({ ...inst, answerTokens: this.task.baseCompletion!(this.rng, inst) }));
  }
}
