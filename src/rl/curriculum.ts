// The curriculum and the KL reference it anchors (docs/methods.md, "The curriculum"), as a
// Trainer (trainer.ts) keeps them between steps: the level the next step trains on, its advance
// when greedy pass@1 on the level's check prompts reaches curriculumTarget, and when the
// reference is taken: as RL begins, at an advance (refSync curriculum) or every refSyncEvery
// steps (refSync every). A resume point saves the level, sinceAdvance and klLimit.

import { curriculumLevels, taskParamsAtLevel, type RunConfig } from '../config/config';
import type { Task } from '../tasks/types';
import type { PolicyEngine } from './engine';
import type { HeldOutEvaluator } from './held-out';
import type { StepRecord } from './step-metrics';

export class Curriculum {
  /** The curriculum level the next step trains on (the value of curriculumParam). */
  level: number;
  /** Steps since the last curriculum advance (or the start). */
  sinceAdvance = 0;
  /** Completion positions c < klLimit get the KL term. */
  klLimit = Infinity;
  // RL starts from a trained model (a warm start, or weights given without a resume point): the
  // curriculum anchor then holds it from level 1 on, not only from the first advance.
  startsTrained = false;

  constructor(
    private readonly config: RunConfig,
    private readonly task: Task,
    private readonly engine: PolicyEngine,
    private readonly heldOut: HeldOutEvaluator,
  ) {
    this.level = curriculumLevels(config)[0];
  }

  /** Before a step: the reference taken as RL begins, where none is yet and it is due. */
  async anchorAsRlBegins(): Promise<void> {
    const c = this.config;
    if (c.klBeta > 0 && !this.engine.hasReference && (c.refSync !== 'curriculum' || this.startsTrained)) {
      // refSync none or every: the reference is the policy as RL begins (after any warm start).
      // refSync curriculum: from scratch there is nothing worth anchoring to before the first
      // advance; from a trained model (a base model that walks legally) level 1 is anchored to it.
      await this.engine.syncReference();
      this.klLimit = Infinity;
    }
  }

  /**
   * After step `stepCount`: the curriculum advance (with the reference re-sync it may trigger,
   * its check's scalars in `record`), then the periodic re-sync.
   */
  async afterStep(stepCount: number, record: StepRecord): Promise<void> {
    const c = this.config;
    const final = curriculumLevels(c)[1];
    this.sinceAdvance++;
    if (c.curriculum === 'pass-rate' && this.level < final && this.sinceAdvance >= c.curriculumWindow) {
      this.sinceAdvance = 0;
      // Greedy pass@1 on the level's check prompts, training instances (docs/methods.md, "The curriculum").
      const rate = await this.heldOut.greedyPassRate(this.level);
      record.scalars['curriculum/greedy_pass@1'] = rate;
      if (rate >= c.curriculumTarget) {
        const prevLc = this.task.shape(taskParamsAtLevel(c, this.level)).completionLength;
        this.level++;
        record.scalars['curriculum/advanced'] = 1;
        if (c.refSync === 'curriculum' && c.klBeta > 0) {
          // Anchor: snapshot the policy that solved the previous level; leave the positions the
          // new level added (completion positions ≥ the old EOS position) free of KL.
          await this.engine.syncReference();
          this.klLimit = c.klMaskNew ? prevLc - 1 : Infinity;
        }
      }
    }
    if (c.refSync === 'every' && c.klBeta > 0 && c.refSyncEvery > 0 && stepCount % c.refSyncEvery === 0) {
      await this.engine.syncReference();
    }
  }
}
