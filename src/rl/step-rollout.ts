// Phases 1 and 3 of a step: sampling the batch (with DAPO's dynamic sampling) and turning the
// verified (or consensus) rewards into per-token advantages (with the run's own reward shaping and estimator,
// MaPP's posterior and the sampled entropy regulator). Phase 2, verify, is verifyBatch.

import type { RunConfig } from '../config/config';
import type { Task, TaskParams } from '../tasks/types';
import type { PolicyEngine } from './engine';
import {
  advantagesFromBase,
  computeAdvantages,
  type AdvantageOptions,
  type AdvantageResult,
  type RolloutBatch,
} from './estimators';
import type { RunCode } from './custom/custom-code';
import { CustomCodeError } from './custom/custom-code-errors';
import { estimatorInput, estimatorLengths, rewardFacts, rewardInput } from './custom/interface';
import type { LossSettings } from './settings';
import { applyOverlongShaping, informativeGroups } from './shaping';
import { buildTemplate, completionFacts, gatherGroups, rolloutShape, verifyBatch, type SampledGroup } from './rollout';
import type { PromptPool } from './prompt-pool';
import { consensusRewards } from './consensus';
import type { StepTimes } from './step-times';
import { namedTensors, TrainingFault, type RolloutSnapshot } from './trainer-types';

/** What sampling a batch needs of the trainer. */
export interface SampleContext {
  config: RunConfig;
  engine: PolicyEngine;
  task: Task;
  vocab: string[];
  prompts: PromptPool;
  settings: LossSettings;
  /** The task's parameters at the level being trained. */
  params: TaskParams;
}

/**
 * Phase 1: B prompts and G completions each. With dynamic sampling (DAPO) the groups whose
 * rewards are all equal (no signal) are set aside and more prompts are sampled, up to
 * dynamicMaxTries rounds; a batch still short is filled with the set-aside groups.
 */
export async function sampleBatch(ctx: SampleContext, step: number, times: StepTimes): Promise<RolloutSnapshot> {
  const c = ctx.config;
  const G = c.groupSize;
  const tries = c.dynamicSampling ? c.dynamicMaxTries : 1;
  let kept: SampledGroup[] = [];
  const spare: SampledGroup[] = [];
  for (let attempt = 0; attempt < tries && kept.length < c.batchPrompts; attempt++) {
    const instances = ctx.prompts.sample(c.batchPrompts, ctx.params);
    const shape = rolloutShape(instances, G);
    const sample = await times.addAsync('sample', () =>
      ctx.engine.sample(buildTemplate(instances, shape), shape.N, shape.T, {
        seed: c.seed >>> 0,
        step: ((step - 1) * tries + attempt) >>> 0,
        invTemp: ctx.settings.invTemp,
        topK: c.topK,
      }),
    );
    times.sampledTokens += shape.N * (shape.T - 1);
    const groups = instances.map((inst, b) => ({ inst, sample, shape, b }));
    if (!c.dynamicSampling) {
      kept = groups;
      break;
    }
    const v = times.add('verify', () => verifyBatch(ctx.task, instances, sample.tokens, shape));
    const informative = informativeGroups(v.rewards, shape.B, G);
    for (const g of groups) (informative[g.b] ? kept : spare).push(g);
  }
  while (kept.length < c.batchPrompts && spare.length) kept.push(spare.shift()!);
  const { instances, shape, sample } = gatherGroups(kept.slice(0, c.batchPrompts), G);
  if (!sample.logp.every(Number.isFinite) || !sample.entropy.every(Number.isFinite)) {
    const tensors = await ctx.engine.nonFiniteTensors();
    throw new TrainingFault(
      step,
      tensors,
      `step ${step}: non-finite log-probabilities while sampling${namedTensors(tensors, 'non-finite weights in')}` +
        '; the weights from before this step are kept. Load a checkpoint or reset, and lower the learning rate (lr).',
    );
  }
  return {
    shape,
    instances,
    tokens: sample.tokens,
    facts: completionFacts(sample, instances, shape, c.maskTruncated),
    vocab: ctx.vocab,
    verified: {
      rewards: new Float64Array(shape.N),
      correct: new Uint8Array(shape.N),
      signatures: [],
      errorSignatures: [],
      groupMetrics: [],
    },
  };
}

/** What the advantages need of the trainer. */
export interface AdvantageContext {
  config: RunConfig;
  prompts: PromptPool;
  code: RunCode;
  options: AdvantageOptions;
  settings: LossSettings;
  alpha: number;
}

/**
 * Phase 3: rewards (with DAPO's overlong shaping) → per-token advantages (docs/estimators.md).
 * Returns the batch the metrics read and the advantages the loss trains on: with the sampled
 * regulator, α·(−log π(y_t)) is added to each trained token's (a REINFORCE estimate of the
 * entropy's gradient).
 */
export async function advantagesFor(
  ctx: AdvantageContext,
  s: RolloutSnapshot,
  step: number,
): Promise<{ batch: RolloutBatch; trainAdv: Float32Array }> {
  const c = ctx.config;
  const { shape, facts, verified } = s;
  const promptKeys = s.instances.map((i) => ctx.prompts.key(i));
  const mapp = ctx.prompts.mapp;
  const { reward: shaping, estimator } = ctx.code;
  let batch: RolloutBatch;
  let adv: AdvantageResult;
  try {
    // The label-free reward (OM-GRPO) replaces the verifier's; pass@1 still counts verified.correct.
    let rewards = verified.rewards;
    if (c.rewardSource === 'consensus') {
      s.consensus = consensusRewards(s.tokens, shape);
      rewards = s.consensus.rewards;
    }
    if (shaping)
      rewards = await shaping.call(rewardInput(rewardFacts(s, promptKeys, step)), [
        { length: shape.N, meaning: 'N, one per completion' },
      ]);
    if (c.overlongBuffer > 0) rewards = applyOverlongShaping(rewards, facts.lengths, shape.Lc, c.overlongBuffer);
    batch = {
      B: shape.B,
      G: shape.G,
      T: shape.Lc,
      rewards,
      correct: verified.correct,
      mask: facts.mask,
      entropy: facts.entropy,
      lengths: facts.lengths,
      signatures: verified.signatures,
      errorSignatures: verified.errorSignatures,
      promptKeys,
      logp: facts.logp,
    };
    adv = estimator
      ? advantagesFromBase(
          batch,
          ctx.options,
          await estimator.call(estimatorInput(batch, step), estimatorLengths(batch)),
        )
      : computeAdvantages(batch, ctx.options, mapp ?? undefined);
  } catch (e) {
    if (!(e instanceof CustomCodeError)) throw e;
    throw new TrainingFault(
      step,
      [],
      `step ${step}: ${e.message.replace(/\.$/, '')}. Nothing was trained on this step: the weights from before it are kept; fix the code and continue, or reset.`,
      'custom-code',
      e.location,
    );
  }
  mapp?.observeBatch(batch.promptKeys, batch.correct, shape.G);
  const trainAdv = adv.adv.slice();
  if (ctx.settings.alphaIn === 'advantages' && ctx.alpha !== 0) {
    for (let j = 0; j < trainAdv.length; j++) if (adv.tokenMask[j]) trainAdv[j] += ctx.alpha * -facts.logp[j];
  }
  s.advantages = adv;
  return { batch, trainAdv };
}
