import { describe, expect, it } from 'vitest';
import { summarizeAblation, type SeedRun } from '.';

/** A run with a flat reward `r` for 20 steps, solved (held-out pass@1 = 1) from step 10 when `solves`. */
function run(seed: number, r: number, solves: boolean): SeedRun {
  const reward = Array.from({ length: 20 }, (_, i) => ({ step: i + 1, value: r }));
  const evals = [10, 20].map((step) => ({ step, value: solves ? 1 : 0 }));
  return { seed, lastStep: 20, series: { reward, 'eval/pass@1_greedy': evals } };
}

const rule = { metric: 'eval/pass@1_greedy', target: 0.9 };
const options = { metrics: ['reward'], solved: rule };

describe('the ablation answered in one line', () => {
  it('two cells that cannot be told apart: not different, with the seeds, p, and how many each solved', () => {
    const a = { label: 'lr=0.01', runs: [0, 1, 2, 3].map((s) => run(s, [0.5, 0.7, 0.6, 0.8][s], s < 3)) };
    const b = { label: 'lr=0.003', runs: [0, 1, 2, 3].map((s) => run(s, [0.6, 0.5, 0.8, 0.7][s], s > 0)) };
    const stats = summarizeAblation([a, b], options);
    expect(stats.answer).toMatch(
      /^lr=0\.01 vs lr=0\.003, final reward: not different with 4 seeds a cell \(p = 1\.00\); both solve 3\/4$/,
    );
  });

  it('a difference the seeds support names the higher cell; cells solved unequally are told apart', () => {
    const a = { label: 'a', runs: [0, 1, 2, 3].map((s) => run(s, 0.9 + s / 100, true)) };
    const b = { label: 'b', runs: [0, 1, 2, 3].map((s) => run(s, 0.1 + s / 100, s === 0)) };
    expect(summarizeAblation([a, b], options).answer).toBe(
      'a vs b, final reward: a higher than b (p = 0.029) with 4 seeds a cell; a solves 4/4, b 1/4',
    );
  });

  it('too few seeds say so; a cell with no run yet is left out and named', () => {
    const a = { label: 'a', runs: [run(0, 0.9, true), run(1, 0.8, true)] };
    const b = { label: 'b', runs: [run(0, 0.1, false), run(1, 0.2, false)] };
    const c = { label: 'c', runs: [] };
    const answer = summarizeAblation([a, b, c], options).answer;
    expect(answer).toBe(
      'a vs b, final reward: too few seeds to tell (2 seeds a cell: the smallest possible p is 0.33); a solves 2/2, b 0/2; not started: c',
    );
    expect(summarizeAblation([a], options).answer).toBe('a: 2 seeds so far, nothing to compare with yet; a solves 2/2');
  });
});
