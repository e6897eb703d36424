import { describe, expect, it } from 'vitest';
import {
  finalStats,
  gehanScore,
  kaplanMeier,
  kaplanMeierMedian,
  meanCurve,
  solveOutcome,
  solveStats,
  solvedBy,
  solveSentence,
  summarizeAblation,
  type AblationCell,
  type SeedRun,
  type SolveOutcome,
} from '.';
import { seedRunFrom, seedRunFromMetricsJsonl, seedRunFromRecord } from './seed-runs';
import { ablationMarkdown } from './report';

/** A run whose held-out pass@1 is 0 until `solveAt` and 1 from then on, evaluated every 50 steps. */
function run(seed: number, solveAt: number | null, lastStep = 600): SeedRun {
  const pts = [];
  for (let s = 50; s <= lastStep; s += 50)
    pts.push({ step: s, value: solveAt !== null && s >= solveAt ? 1 : 0, level: 3 });
  const reward = [];
  for (let s = 1; s <= lastStep; s++) reward.push({ step: s, value: seed / 10 + s / lastStep / 2, level: 3 });
  return { seed, lastStep, series: { 'eval/pass@1_greedy': pts, reward } };
}

/** A run of `values.length` steps whose metric r is values[i] at step i + 1. */
const stepRun = (seed: number, values: number[]): SeedRun => ({
  seed,
  lastStep: values.length,
  series: { r: values.map((value, i) => ({ step: i + 1, value })) },
});

const rule = { metric: 'eval/pass@1_greedy', target: 0.9 };
const outcome = (solvedAt: number | null, lastStep = 1000): SolveOutcome => ({ seed: 0, solvedAt, lastStep });

describe('ablation statistics', () => {
  it('the mean curve aligns runs on steps, says how many runs each point averages, and thins without smoothing', () => {
    const a = stepRun(0, [0, 2, 4]);
    const b = stepRun(1, [2, 4]);
    const curve = meanCurve([a, b], 'r');
    expect(curve.map((p) => [p.step, p.n, p.mean])).toEqual([
      [1, 2, 1],
      [2, 2, 3],
      [3, 1, 4],
    ]);
    expect(curve[0].hi! - 1).toBeCloseTo(12.7062, 3);
    expect(curve[2]).toMatchObject({ lo: null, hi: null });
    const long = stepRun(
      0,
      Array.from({ length: 100 }, (_, i) => i),
    );
    const thin = meanCurve([long], 'r', { maxPoints: 5 });
    expect(thin.map((p) => p.step)).toEqual([1, 26, 51, 75, 100]);
    expect(thin.map((p) => p.mean)).toEqual([0, 25, 50, 74, 99]);
  });

  it('final values: the last evaluation, or the mean of the last 10 steps of a per-step metric', () => {
    const runs = [run(1, 100), run(2, null)];
    const ev = finalStats(runs, 'eval/pass@1_greedy');
    expect(ev).toMatchObject({
      window: 1,
      n: 2,
      mean: 0.5,
      values: [
        { seed: 1, value: 1 },
        { seed: 2, value: 0 },
      ],
    });
    const rw = finalStats(runs, 'reward');
    expect(rw.window).toBe(10);
    expect(rw.values[0].value).toBeCloseTo(0.1 + 595.5 / 600 / 2, 12);
    expect(finalStats(runs, 'absent')).toMatchObject({ n: 0, values: [] });
  });

  it('solved at step: the first step at the target, at or above a level when asked; otherwise censored', () => {
    expect(solveOutcome(run(0, 210), rule)).toEqual({ seed: 0, solvedAt: 250, lastStep: 600 });
    expect(solveOutcome(run(0, null, 400), rule)).toEqual({ seed: 0, solvedAt: null, lastStep: 400 });
    const levelled: SeedRun = {
      seed: 0,
      lastStep: 30,
      series: {
        'eval/pass@1_greedy': [
          { step: 10, value: 1, level: 2 },
          { step: 20, value: 0.5, level: 3 },
          { step: 30, value: 0.95, level: 3 },
        ],
      },
    };
    expect(solveOutcome(levelled, { ...rule, level: 3 }).solvedAt).toBe(30);
    expect(solveOutcome(levelled, rule).solvedAt).toBe(10);
  });

  it('Kaplan–Meier: no censoring gives the ordinary median; a run stopped unsolved counts until its last step', () => {
    const plain = kaplanMeier([550, 700, 750, 800].map((t) => outcome(t)));
    expect(plain.map((p) => [p.step, p.solved])).toEqual([
      [0, 0],
      [550, 0.25],
      [700, 0.5],
      [750, 0.75],
      [800, 1],
    ]);
    expect(kaplanMeierMedian(plain)).toBe(725);
    const censored = kaplanMeier([outcome(100), outcome(null, 200), outcome(300), outcome(null, 400)]);
    expect(censored.map((p) => [p.step, p.atRisk, p.solved])).toEqual([
      [0, 4, 0],
      [100, 4, 0.25],
      [300, 2, 1 - 0.75 * 0.5],
    ]);
    expect(kaplanMeierMedian(censored)).toBe(300);
    expect(solvedBy(censored, 299)).toBe(0.25);
    expect(kaplanMeierMedian(kaplanMeier([outcome(100), outcome(null), outcome(null)]))).toBeNull();
  });

  it("Gehan's score only counts orders that are certain", () => {
    expect(gehanScore(outcome(100), outcome(200))).toBe(1);
    expect(gehanScore(outcome(200), outcome(100))).toBe(-1);
    expect(gehanScore(outcome(100), outcome(null, 500))).toBe(1);
    expect(gehanScore(outcome(600), outcome(null, 500))).toBe(0);
    expect(gehanScore(outcome(null, 500), outcome(400))).toBe(-1);
    expect(gehanScore(outcome(null), outcome(null))).toBe(0);
  });

  it('Kaplan–Meier at a tie: a run censored at the step another solved is still at risk there (50%, not 100%)', () => {
    // Runs of 5 steps: one solved at step 5, one stopped unsolved at step 5.
    const tie = kaplanMeier([outcome(5, 5), outcome(null, 5)]);
    expect(tie.map((p) => [p.step, p.atRisk, p.events, p.solved])).toEqual([
      [0, 2, 0, 0],
      [5, 2, 1, 0.5],
    ]);
    expect(solvedBy(tie, 5)).toBe(0.5);
    expect(kaplanMeierMedian(tie)).toBe(5);
    // Censored one step before the solve: no longer at risk, so the one left solved: 100%.
    expect(solvedBy(kaplanMeier([outcome(5, 5), outcome(null, 4)]), 5)).toBe(1);
    // One step after: at risk, 50%.
    expect(solvedBy(kaplanMeier([outcome(5, 5), outcome(null, 6)]), 5)).toBe(0.5);
    // The same through the summary and its Markdown table.
    const cell = (seed: number, solved: boolean): SeedRun => ({
      seed,
      lastStep: 5,
      series: { 'eval/pass@1_greedy': [{ step: 5, value: solved ? 1 : 0, level: 3 }] },
    });
    const stats = summarizeAblation([{ label: 'a', runs: [cell(0, true), cell(1, false)] }], {
      metrics: ['eval/pass@1_greedy'],
      solved: rule,
    });
    expect(solvedBy(stats.cells[0].solve!.curve, 5)).toBe(0.5);
    expect(ablationMarkdown(stats, { title: 't' })).toContain('| a | 0% | 0% | 0% | 50% |');
  });

  it('Gehan at a tie: a solve at the step the other run stopped unsolved is a certain order', () => {
    expect(gehanScore(outcome(5, 5), outcome(null, 5))).toBe(1);
    expect(gehanScore(outcome(null, 5), outcome(5, 5))).toBe(-1);
    expect(gehanScore(outcome(6, 6), outcome(null, 5))).toBe(0);
    expect(gehanScore(outcome(null, 5), outcome(6, 6))).toBe(0);
    expect(gehanScore(outcome(5), outcome(5))).toBe(0);
    // Four seeds solving at the last step of a 5-step budget against four that never did: the
    // order is certain for all 16 pairs, so the permutation test reaches its smallest p.
    const at5 = (seed: number, solved: boolean): SeedRun => ({
      seed,
      lastStep: 5,
      series: { 'eval/pass@1_greedy': [{ step: 5, value: solved ? 1 : 0, level: 3 }] },
    });
    const stats = summarizeAblation(
      [
        { label: 'solves', runs: [0, 1, 2, 3].map((s) => at5(s, true)) },
        { label: 'never', runs: [0, 1, 2, 3].map((s) => at5(s, false)) },
      ],
      { metrics: [], solved: rule },
    );
    expect(stats.comparisons[0]).toMatchObject({ kind: 'solve', statistic: 16, verdict: 'a-faster' });
    expect(stats.verdict).toContain('solves solved sooner than never (permutation test over seeds, p = 0.029)');
  });

  it('solve statistics: k/n, median with a bootstrap interval from a fixed seed, in plain words', () => {
    const s = solveStats([run(0, 550, 1500), run(1, 610, 1500), run(2, 700, 1500), run(3, 640, 1500)], rule);
    expect(s).toMatchObject({ n: 4, solved: 4, within: { min: 1500, max: 1500 } });
    expect(s.median).toBe(650); // evaluated every 50 steps: 550, 650, 700, 650
    expect(s.medianInterval!.lo).toBeGreaterThanOrEqual(550);
    expect(s.medianInterval!.hi).toBeLessThanOrEqual(700);
    expect(solveStats([run(0, 550, 1500), run(1, 610, 1500), run(2, 700, 1500), run(3, 640, 1500)], rule)).toEqual(s);
    expect(solveSentence('clip-higher', s)).toMatch(
      /^clip-higher: solved in 4\/4 seeds, median 650 steps \[\d+, \d+\]$/,
    );
    const some = solveStats([run(0, 600, 1500), run(1, 800, 1500), run(2, null, 1500), run(3, null, 1500)], rule);
    expect(solveSentence('baseline', some)).toBe(
      'baseline: solved in 2/4 seeds within 1,500 steps, median 800 steps [600, > 1,500]',
    );
    const none = solveStats([run(0, null, 1500), run(1, null, 1200)], rule);
    expect(solveSentence('b', none)).toBe('b: solved in 0/2 seeds within 1,200–1,500 steps');
  });

  it('a verdict claims a difference only when the test supports it', () => {
    const fast: AblationCell = { label: 'clip-higher', runs: [0, 1, 2, 3].map((s) => run(s, 100 + 50 * s)) };
    const never: AblationCell = { label: 'symmetric clip', runs: [0, 1, 2, 3].map((s) => run(s, null)) };
    const stats = summarizeAblation([fast, never], { metrics: ['eval/pass@1_greedy', 'reward'], solved: rule });
    expect(stats.verdict[0]).toMatch(/^clip-higher: solved in 4\/4 seeds, median 175 steps/);
    expect(stats.verdict[1]).toBe('symmetric clip: solved in 0/4 seeds within 600 steps');
    expect(stats.verdict[2]).toBe(
      'clip-higher solved sooner than symmetric clip (permutation test over seeds, p = 0.029)',
    );
    expect(stats.verdict[3]).toMatch(
      /^final held-out pass@1: clip-higher 1\.00 \[1\.00, 1\.00\] vs symmetric clip 0\.00 .*: higher with clip-higher \(permutation test over seeds, p = 0\.029\)$/,
    );
    expect(stats.comparisons.find((c) => c.kind === 'final' && c.metric === 'reward')).toMatchObject({
      verdict: 'not-different',
    });

    const two = summarizeAblation(
      [
        { ...fast, runs: fast.runs.slice(0, 2) },
        { ...never, runs: never.runs.slice(0, 2) },
      ],
      { metrics: ['eval/pass@1_greedy'], solved: rule },
    );
    expect(two.verdict).toContain(
      'clip-higher vs symmetric clip, steps to solve: not different at this many seeds (with 2 and 2 seeds no permutation test can reach p < 0.05; the smallest possible p is 0.33)',
    );

    const one = summarizeAblation(
      [
        { ...fast, runs: fast.runs.slice(0, 1) },
        { ...never, runs: never.runs.slice(0, 1) },
      ],
      { metrics: ['eval/pass@1_greedy'], solved: rule },
    );
    expect(one.verdict[0]).toMatch(/^One seed answers nothing/);
    expect(one.comparisons.every((c) => c.verdict === 'too-few-seeds')).toBe(true);
    expect(one.verdict.join(' ')).not.toMatch(/sooner|higher with/);
  });

  it("Holm's adjustment covers all pairs of three cells; the summary is deterministic and renders as Markdown", () => {
    const cells: AblationCell[] = [
      { label: 'GRPO', runs: [0, 1, 2, 3].map((s) => run(s, 300 + 50 * s)) },
      { label: 'Dr. GRPO', runs: [0, 1, 2, 3].map((s) => run(s, 250 + 100 * s)) },
      { label: 'RLOO', runs: [0, 1, 2, 3].map((s) => run(s, s < 2 ? 500 : null)) },
    ];
    const options = { metrics: ['eval/pass@1_greedy', 'reward'], solved: rule };
    const stats = summarizeAblation(cells, options);
    expect(stats.comparisons.filter((c) => c.kind === 'solve').map((c) => `${c.a}/${c.b}`)).toEqual([
      'GRPO/Dr. GRPO',
      'GRPO/RLOO',
      'Dr. GRPO/RLOO',
    ]);
    for (const c of stats.comparisons) if (c.p !== null) expect(c.pAdjusted!).toBeGreaterThanOrEqual(c.p);
    expect(JSON.parse(JSON.stringify(summarizeAblation(cells, options)))).toEqual(JSON.parse(JSON.stringify(stats)));
    const md = ablationMarkdown(stats, { title: 'Ablation: estimators', lines: ['preset x'] });
    expect(md).toContain('## Verdict');
    expect(md).toContain('| GRPO | 4/4 within 600 |');
    expect(md).toContain('Solved by step t (Kaplan–Meier');
    expect(md).toContain('| held-out pass@1 | RLOO | 4 | 0.50 [');
  });
});

describe('runs from a CLI folder and from the page are the same series', () => {
  const steps = [
    { step: 1, level: 2, scalars: { reward: 0.1, entropy: 1.5 } },
    { step: 2, level: 3, scalars: { reward: 0.3, entropy: 1.2 } },
  ];
  const evals = [
    {
      step: 2,
      level: 3,
      prompts: 16,
      k: 4,
      'eval/pass@1_greedy': 0.5,
      'eval/pass@k': 0.7,
      'eval/pass@1_sampled': 0.4,
      taskMetrics: { cot_alignment_prefix: 0.8 },
    },
  ];

  it('metrics.jsonl text and a RunRecord give equal SeedRuns', () => {
    const jsonl = [
      JSON.stringify({ warmStart: { steps: 3 } }),
      JSON.stringify({ ...steps[0], entropy_by_pos: [1], advantage_histogram: { counts: [], edges: [] } }),
      JSON.stringify({
        ...steps[1],
        entropy_by_pos: [1],
        advantage_histogram: { counts: [], edges: [] },
        eval: evals[0],
      }),
      '{"step": 3, "lev', // a run killed mid-write
    ].join('\n');
    const fromFile = seedRunFromMetricsJsonl(7, jsonl, 'r');
    const fromPage = seedRunFromRecord({ id: 'r', config: { seed: 7 }, points: steps, evals });
    expect(fromFile).toEqual(fromPage);
    expect(fromFile.lastStep).toBe(2);
    expect(fromFile.series.level).toEqual([
      { step: 1, value: 2, level: 2 },
      { step: 2, value: 3, level: 3 },
    ]);
    expect(fromFile.series['eval/pass@1_greedy']).toEqual([{ step: 2, value: 0.5, level: 3 }]);
    expect(fromFile.series['eval/task/cot_alignment_prefix']).toEqual([{ step: 2, value: 0.8, level: 3 }]);
    expect(seedRunFrom(7, steps, evals, 'r')).toEqual(fromFile);
    expect(() =>
      seedRunFromMetricsJsonl(0, 'nope\n' + JSON.stringify(steps[0]) + '\n' + JSON.stringify(steps[1])),
    ).toThrow(/line 1/);
  });
});

describe("intervals stay in a metric's range", () => {
  it("a rate's band and final interval are cut to [0, 1]; an unbounded metric's are not", () => {
    const runs: SeedRun[] = [0, 1, 2, 3].map((seed) => ({
      seed,
      lastStep: 1,
      series: {
        'eval/pass@1_greedy': [{ step: 1, value: seed < 2 ? 1 : 0 }],
        loss: [{ step: 1, value: seed < 2 ? 1 : 0 }],
      },
    }));
    const stats = summarizeAblation([{ label: 'a', runs }], { metrics: ['eval/pass@1_greedy', 'loss'] });
    expect(stats.cells[0].finals['eval/pass@1_greedy']).toMatchObject({ lo: 0, hi: 1 });
    expect(stats.cells[0].curves['eval/pass@1_greedy'][0]).toMatchObject({ lo: 0, hi: 1 });
    expect(stats.cells[0].finals.loss.lo).toBeLessThan(0);
  });
});

describe('non-negative metrics', () => {
  it("an entropy's interval stops at 0", () => {
    const runs: SeedRun[] = [0.0, 0.05, 0.01].map((v, seed) => ({
      seed,
      lastStep: 1,
      series: { entropy: [{ step: 1, value: v }] },
    }));
    const f = summarizeAblation([{ label: 'a', runs }], { metrics: ['entropy'] }).cells[0].finals.entropy;
    expect(f.lo).toBe(0);
    expect(f.hi).toBeGreaterThan(0.05);
  });
});

describe('metrics no run recorded', () => {
  it('are left out, so the first recorded metric is the main one', () => {
    const stats = summarizeAblation([{ label: 'a', runs: [run(0, 100), run(1, null)] }], {
      metrics: ['eval/task/absent', 'reward'],
    });
    expect(stats.metrics).toEqual(['reward']);
    expect(Object.keys(stats.cells[0].finals)).toEqual(['reward']);
  });
});
