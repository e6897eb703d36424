// What the loop diagram says about one group of the latest rollouts, and which stage is lit,
// as plain data (tested in Node).

import type { Phase } from '../../rl/step-metrics';
import type { RolloutView } from '../../worker/protocol';
import { promptWords } from '../answers/groupData';

export const LOOP_STAGES = ['prompt', 'sample', 'verify', 'advantages', 'update'] as const;
export type LoopStage = (typeof LOOP_STAGES)[number];
export type StageState = 'current' | 'done' | 'idle';

/**
 * The state of each stage after `phase` of the step in progress. null: no step in progress —
 * every stage done once a step has run (a rollout exists), idle before.
 */
export function stageStates(phase: Phase | null, hasRollout: boolean): Record<LoopStage, StageState> {
  const at = phase === null ? -1 : LOOP_STAGES.indexOf(phase);
  const out = {} as Record<LoopStage, StageState>;
  LOOP_STAGES.forEach((stage, i) => {
    if (at < 0) out[stage] = hasRollout ? 'done' : 'idle';
    else out[stage] = i === at ? 'current' : i < at ? 'done' : 'idle';
  });
  return out;
}

export interface LoopFacts {
  /** The prompt in readable form (element names, letters, …). */
  prompt: string | null;
  /** Right answers in the group (null before the verify phase). */
  right: number | null;
  meanReward: number | null;
  /** [min, max] of the group's answer-level advantages (null before the advantages phase). */
  advantageRange: [number, number] | null;
}

export function loopFacts(rollout: RolloutView | null, b: number): LoopFacts {
  if (!rollout || b >= rollout.shape.B) return { prompt: null, right: null, meanReward: null, advantageRange: null };
  const { G } = rollout.shape;
  const inst = rollout.instances[b];
  const prompt = promptWords(inst, rollout.vocab).prompt;
  const verified = rollout.phase !== 'sample';
  let right = 0;
  let sum = 0;
  let lo = Infinity;
  let hi = -Infinity;
  for (let g = 0; g < G; g++) {
    const n = b * G + g;
    right += rollout.correct[n];
    sum += rollout.rewards[n];
    const a = rollout.seqAdvantages?.[n];
    if (a === undefined) continue;
    lo = Math.min(lo, a);
    hi = Math.max(hi, a);
  }
  return {
    prompt,
    right: verified ? right : null,
    meanReward: verified ? sum / G : null,
    advantageRange: rollout.seqAdvantages ? [lo, hi] : null,
  };
}

/**
 * The "compare in the group" sentence, computed from the advantages the estimator gave (not
 * assumed from GRPO): equal advantages teach nothing only when they are 0 — MaPP, for one, gives
 * every answer of an all-wrong group the same negative advantage, and so pushes them all down.
 */
export function advantageSentence(range: readonly [number, number] | null, format: (x: number) => string): string {
  if (range === null) return 'better than the group → +, worse → −';
  const signed = (x: number): string => (x > 0 ? `+${format(x)}` : format(x));
  const [lo, hi] = range;
  if (lo !== hi) return `A from ${signed(lo)} to ${signed(hi)}`;
  if (Math.abs(lo) < 1e-9) return 'all equal → every A = 0: nothing to learn from this group';
  return `all equal → every A = ${signed(lo)}: every answer pushed ${lo > 0 ? 'up' : 'down'} alike`;
}
