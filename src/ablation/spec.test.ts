// Ablation specs: the cells a preset or a grid asks for, their labels and configs, and every
// preset's declared ablation is runnable.

import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config/config';
import { ablationCells, ablationRunConfig, ablationSpec, cellDirName, parseGridFlags, parseSeedList } from './spec';
import { PRESETS, presetConfig, variantConfig } from '../lessons/presets';
import { configFromCli } from '../lessons/preset-flags';

describe('ablation specs', () => {
  it('seed lists and grid flags parse, and bad ones are named', () => {
    expect(parseSeedList('0-3')).toEqual([0, 1, 2, 3]);
    expect(parseSeedList('0-2, 7,2')).toEqual([0, 1, 2, 7]);
    expect(() => parseSeedList('3-1')).toThrow(/must go up/);
    expect(() => parseSeedList('a')).toThrow(ConfigError);
    expect(parseGridFlags(['lr=0.003,0.01', 'epsHigh=0.2, 0.28'])).toEqual([
      ['lr', ['0.003', '0.01']],
      ['epsHigh', ['0.2', '0.28']],
    ]);
    expect(() => parseGridFlags(['lr'])).toThrow(/--grid expects knob=value,value/);
    expect(() => parseGridFlags(['lr=1', 'lr=2'])).toThrow(/twice/);
  });

  it('cells: the preset and its variants times every grid combination, labelled and with unique folders', () => {
    expect(
      ablationCells({ preset: 'clip-higher', variants: ['symmetric clip'], grid: [] }).map((c) => [
        c.label,
        c.dir,
        c.variant,
      ]),
    ).toEqual([
      ['clip-higher', 'clip-higher', undefined],
      ['symmetric clip', 'symmetric-clip', 'symmetric clip'],
    ]);
    expect(
      ablationCells({
        preset: 'sort-easy',
        variants: [],
        grid: [
          ['lr', ['0.003', '0.01']],
          ['groupSize', ['4', '8']],
        ],
      }).map((c) => c.label),
    ).toEqual(['lr=0.003, groupSize=4', 'lr=0.003, groupSize=8', 'lr=0.01, groupSize=4', 'lr=0.01, groupSize=8']);
    const both = ablationCells({
      preset: 'clip-higher',
      variants: ['symmetric clip'],
      grid: [['lr', ['0.001', '0.003']]],
    });
    expect(both.map((c) => c.label)).toEqual([
      'clip-higher, lr=0.001',
      'clip-higher, lr=0.003',
      'symmetric clip, lr=0.001',
      'symmetric clip, lr=0.003',
    ]);
    expect(both[3]).toMatchObject({ dir: 'symmetric-clip-lr=0.003', variant: 'symmetric clip', set: { lr: '0.003' } });
    expect(cellDirName('a/b c')).toBe('a-b-c');
  });

  it("a run's config is what rlvr train builds from the same flags", () => {
    const spec = ablationSpec('clip-higher', { seeds: [0, 1], steps: 5, sets: ['evalEvery=0'] });
    const [base, sym] = ablationCells(spec);
    expect(ablationRunConfig(spec, sym, 1)).toEqual({
      ...configFromCli({ preset: 'clip-higher', variant: 'symmetric clip', sets: ['evalEvery=0'] }),
      steps: 5,
      seed: 1,
    });
    expect(ablationRunConfig(spec, base, 0)).toMatchObject({ epsHigh: 0.28, steps: 5, seed: 0, evalEvery: 0 });
  });

  it("a preset's own ablation fills the spec; flags replace its cells; a bad knob fails before anything runs", () => {
    const own = ablationSpec('sort-easy');
    expect(own).toMatchObject({
      variants: [],
      grid: [['lr', ['0.003', '0.01']]],
      seeds: [0, 1, 2, 3],
      steps: 300,
      solved: { metric: 'eval/pass@1_greedy', target: 0.9 },
    });
    const mine = ablationSpec('sort-easy', { grid: [['epsHigh', ['0.2', '0.28']]], seeds: [5], steps: 3 });
    expect(mine).toMatchObject({ grid: [['epsHigh', ['0.2', '0.28']]], seeds: [5], steps: 3 });
    expect(() => ablationSpec('sort-easy', { grid: [['nope', ['1']]] })).toThrow(/cell "nope=1": .*nope/);
    expect(() => ablationSpec('sort-easy', { grid: [['lr', ['-1']]] })).toThrow(/cell "lr=-1"/);
    expect(() => ablationSpec('dead-groups')).toThrow(
      /declares no ablation: give --grid knob=a,b or --variant LABEL \(its variants: "partial reward", "dynamic sampling"\)/,
    );
    expect(ablationSpec('dead-groups', { variants: ['partial reward'], steps: 100 }).solved).toEqual({
      metric: 'eval/pass@1_greedy',
      target: 0.9,
    });
  });

  it('a lesson that starts from a base model gives its ablation those weights; random weights otherwise, or when told', () => {
    expect(ablationSpec('maze-grpo').init).toBe('checkpoints/maze-grpo-base.safetensors');
    expect(ablationSpec('maze-dr-grpo', { variants: ['half KL and α'] }).init).toBe(
      'checkpoints/maze-dr-grpo-base.safetensors',
    );
    expect(ablationSpec('maze-grpo', { init: null }).init).toBeNull();
    expect(ablationSpec('maze-grpo', { init: 'runs/b/checkpoint-level2.safetensors' }).init).toBe(
      'runs/b/checkpoint-level2.safetensors',
    );
    expect(ablationSpec('sort-easy').init).toBeNull();
    expect(ablationCells(ablationSpec('maze-grpo')).map((c) => c.label)).toEqual(['maze-grpo', 'Dr. GRPO']);
    expect(variantConfig('maze-grpo', 'Dr. GRPO')).toEqual(presetConfig('maze-dr-grpo'));
  });

  it('the five questions of the issue are one-click ablations', () => {
    const cells = (name: string) => ablationCells(ablationSpec(name)).map((c) => c.label);
    expect(cells('clip-higher')).toEqual(['clip-higher', 'symmetric clip']);
    expect(cells('advantage-estimators')).toEqual(['advantage-estimators', 'Dr. GRPO', 'RLOO']);
    expect(cells('mapp-vs-grpo')).toEqual(['mapp-vs-grpo', 'GRPO']);
    expect(cells('cot-discovery')).toEqual(['cot-discovery', 'exact entropy bonus']);
    expect(cells('no-cot-room')).toEqual(['no-cot-room', 'room to think']);
    expect(variantConfig('cot-discovery', 'exact entropy bonus')).toMatchObject({
      entropyMode: 'exact',
      entropyAlpha: 0.1,
    });
    expect(variantConfig('no-cot-room', 'room to think')).toEqual(presetConfig('cot-discovery'));
    expect(variantConfig('advantage-estimators', 'Dr. GRPO')).toMatchObject({
      estimator: 'grpo',
      grpoScale: 'none',
      aggregation: 'seq-mean-token-sum-norm',
    });
    expect(variantConfig('advantage-estimators', 'RLOO')).toMatchObject({ estimator: 'rloo' });
    expect(presetConfig('advantage-estimators')).toMatchObject({
      estimator: 'grpo',
      grpoScale: 'group',
      aggregation: 'seq-mean-token-mean',
    });
  });

  it.each(PRESETS.filter((p) => p.ablation).map((p) => [p.name, p] as const))(
    '%s: its ablation is runnable, measures with evaluations, and says what the literature claims',
    (name, p) => {
      const a = p.ablation!;
      const spec = ablationSpec(name);
      expect(a.seeds).toBeGreaterThanOrEqual(4);
      expect(a.steps).toBeGreaterThan(0);
      for (const v of a.variants ?? []) expect(p.variants?.map((x) => x.label)).toContain(v);
      const configs = ablationCells(spec).map((c) => ablationRunConfig(spec, c, 0));
      for (const c of configs) expect(c.evalEvery, 'solved is read from held-out evaluations').toBeGreaterThan(0);
      if (a.solved?.level !== undefined)
        expect(a.solved.level).toBe(Number(configs[0][`task.${configs[0].curriculumParam}` as 'task']));
      expect(a.question.length).toBeGreaterThan(20);
      expect(a.literature).toMatch(/whatever these runs show/);
      expect(a.reading.length).toBeGreaterThan(40);
    },
  );
});
