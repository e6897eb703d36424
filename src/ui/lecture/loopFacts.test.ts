// The loop diagram's facts and lit stage.

import { describe, expect, it } from 'vitest';
import { advantageSentence, loopFacts, stageStates } from './loopFacts';
import type { RolloutView } from '../../worker/protocol';

function view(partial: Partial<RolloutView>): RolloutView {
  return {
    step: 3,
    shape: { B: 2, G: 3, Lp: 2, Lc: 2, T: 4, N: 6 } as RolloutView['shape'],
    instances: [
      { task: 'sort', input: [2, 0], sorted: [0, 2] },
      { task: 'sort', input: [1, 1], sorted: [1, 1] },
    ] as unknown as RolloutView['instances'],
    vocab: [],
    tokens: new Int32Array(24),
    mask: new Float32Array(12),
    entropy: new Float32Array(12),
    logp: new Float32Array(12),
    rewards: Float64Array.from([1, 0, 0.5, 0, 0, 0]),
    correct: Uint8Array.from([1, 0, 0, 0, 0, 0]),
    ...partial,
  };
}

describe('loop diagram', () => {
  it('lights the phase just done; before any step every stage is idle, after a whole step every stage is done', () => {
    expect(stageStates('verify', true)).toEqual({
      prompt: 'done',
      sample: 'done',
      verify: 'current',
      advantages: 'idle',
      update: 'idle',
    });
    expect(stageStates(null, false)).toEqual({
      prompt: 'idle',
      sample: 'idle',
      verify: 'idle',
      advantages: 'idle',
      update: 'idle',
    });
    expect(stageStates(null, true).update).toBe('done');
  });

  it("tells the shown group's prompt, how many are right, and its advantages once they exist", () => {
    expect(loopFacts(view({ phase: 'sample' }), 0)).toEqual({
      prompt: 'c a',
      right: null,
      meanReward: null,
      advantageRange: null,
    });
    expect(loopFacts(view({ phase: 'verify' }), 0)).toEqual({
      prompt: 'c a',
      right: 1,
      meanReward: 0.5,
      advantageRange: null,
    });
    const f = loopFacts(view({ seqAdvantages: Float64Array.from([1.2, -0.8, -0.4, 0, 0, 0]) }), 1);
    expect(f).toEqual({ prompt: 'b b', right: 0, meanReward: 0, advantageRange: [0, 0] });
    expect(loopFacts(null, 0).prompt).toBeNull();
    expect(loopFacts(view({}), 5).prompt).toBeNull();
  });

  it('says what equal advantages do, from their value: nothing at 0 (GRPO), all pushed down when negative (MaPP)', () => {
    const f = (x: number): string => x.toFixed(2);
    expect(advantageSentence([0, 0], f)).toBe('all equal → every A = 0: nothing to learn from this group');
    expect(advantageSentence([-0.11, -0.11], f)).toBe('all equal → every A = -0.11: every answer pushed down alike');
    expect(advantageSentence([0.2, 0.2], f)).toBe('all equal → every A = +0.20: every answer pushed up alike');
    expect(advantageSentence([-0.8, 1.2], f)).toBe('A from -0.80 to +1.20');
    expect(advantageSentence(null, f)).toBe('better than the group → +, worse → −');
  });
});
