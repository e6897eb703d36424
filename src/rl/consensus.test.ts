import { describe, expect, it } from 'vitest';
import { EOS } from '../tasks/types';
import { answerKey, consensusFromAnswers, consensusRewards } from './consensus';
import type { RolloutShape } from './rollout';
import { Trainer } from './trainer';
import { CpuEngine } from './cpu-engine';
import { presetConfig } from '../lessons/presets';
import { mergeConfig } from '../config/config';

describe('consensus reward (OM-GRPO, worked by hand)', () => {
  it('an answer is the tokens before the first EOS', () => {
    expect(answerKey([5, 6, EOS, 7])).toBe('5,6');
    expect(answerKey([5, 6, 7])).toBe('5,6,7');
    expect(answerKey([EOS, 5])).toBe('');
  });

  it('rewards the majority answer 1 and the others 0; agreement is its share', () => {
    // group 0: x x y z → x wins 2 of 4; group 1: all y → 4 of 4
    const r = consensusFromAnswers(['x', 'x', 'y', 'z', 'y', 'y', 'y', 'y'], 2, 4);
    expect([...r.rewards]).toEqual([1, 1, 0, 0, 1, 1, 1, 1]);
    expect([...r.agreement]).toEqual([0.5, 1]);
    expect(r.rate).toBe(0.75);
  });

  it('a tie goes to the tied answer seen first in the group', () => {
    const r = consensusFromAnswers(['y', 'x', 'x', 'y'], 1, 4);
    expect([...r.rewards]).toEqual([1, 0, 0, 1]);
    expect(r.agreement[0]).toBe(0.5);
    // all different: the first answer is the majority of one
    expect([...consensusFromAnswers(['a', 'b', 'c'], 1, 3).rewards]).toEqual([1, 0, 0]);
  });

  it('empty answers never win and are never rewarded', () => {
    // three empty, one real: the real answer is the majority of one
    const r = consensusFromAnswers(['', '', 'x', ''], 1, 4);
    expect([...r.rewards]).toEqual([0, 0, 1, 0]);
    expect(r.agreement[0]).toBe(0.25);
    // all empty: no majority, nothing rewarded, agreement 0
    const none = consensusFromAnswers(['', '', ''], 1, 3);
    expect([...none.rewards]).toEqual([0, 0, 0]);
    expect(none.rate).toBe(0);
  });

  it('reads the answers from a batch of tokens (prompt, then completion to EOS)', () => {
    // B=1, G=3, Lp=2, Lc=3: completions [5,EOS,9], [5,EOS,8] (same answer "5"), [6,7,EOS]
    const shape: RolloutShape = { B: 1, G: 3, N: 3, Lp: 2, Lc: 3, T: 5 };
    const tokens = Int32Array.from([1, 2, 5, EOS, 9, 1, 2, 5, EOS, 8, 1, 2, 6, 7, EOS]);
    const r = consensusRewards(tokens, shape);
    expect([...r.rewards]).toEqual([1, 1, 0]);
    expect(r.rate).toBeCloseTo(2 / 3, 12);
  });

  it('names a wrong batch size', () => {
    expect(() => consensusFromAnswers(['a'], 1, 2)).toThrow(/expected B·G = 2/);
  });
});

describe('a step under rewardSource = consensus', () => {
  it('trains on the majority reward, and records the consensus rate and the verifier beside it', async () => {
    const cfg = mergeConfig(presetConfig('sort-easy'), { rewardSource: 'consensus', evalEvery: 0, steps: 1 });
    const t = await Trainer.create(cfg, (l, p, s) => new CpuEngine(l, p, s));
    const r = await t.step();
    const s = t.latest!;
    const expected = consensusRewards(s.tokens, s.shape);
    expect(r.scalars.consensus_rate).toBeCloseTo(expected.rate, 12);
    // The reward is the agreement (each group's majority share), not the verifier's.
    expect(r.scalars.reward).toBeCloseTo(expected.rate, 12);
    const verifier = s.verified.rewards.reduce((a, b) => a + b, 0) / s.shape.N;
    expect(r.scalars['reward/verifier']).toBeCloseTo(verifier, 12);
    expect(r.scalars['pass@1']).toBeCloseTo(s.verified.correct.reduce((a, b) => a + b, 0) / s.shape.N, 12);
  });
});
