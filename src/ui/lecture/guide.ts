// When a guide step can be acted on: a step about rollouts or advantages makes no sense before
// there are any (its "show me" waits, saying why).

import type { GuideStep } from '../../lessons';

export interface GuideContext {
  /** Steps the current run has completed. */
  stepsDone: number;
  /** The rollouts shown carry advantages (a step, or the advantages phase, has run). */
  hasAdvantages: boolean;
}

export function guideStepReady(step: GuideStep, ctx: GuideContext): boolean {
  if (step.needs === 'step') return ctx.stepsDone > 0;
  if (step.needs === 'advantages') return ctx.hasAdvantages;
  return true;
}

/** Why a step is not ready yet, for its tooltip. */
export function stepBlocker(step: GuideStep): string {
  return step.needs === 'advantages' ? 'after the first step (or the advantages phase)' : 'after the first step';
}
