// Every preset and variant is a valid config, and the presets say what the brief says they do.

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { ConfigError, defaultConfig, modelConfigOf, taskParamsOf, validateConfig } from '../config/config';
import { findKnob } from '../config/knobs';
import { getPreset, PRESET_NAMES, PRESETS, presetConfig, variantConfig } from './presets';
import { COT_INTERLEAVED } from './recipes';
import { parseRecordedWalks } from '../tasks/maze';
import { readRunCheckpoint } from '../config/checkpoint-run';
import type { ReferenceSet } from '../ui/charts/recordedRuns';

/** A trained model the page ships (a path under public/), read as the jump-ahead reads it. */
const shippedCheckpoint = (file: string) =>
  readRunCheckpoint(new Uint8Array(readFileSync(new URL(`../../public/${file}`, import.meta.url))), file);

describe('presets', () => {
  it.each(PRESET_NAMES)('%s validates, is documented, and its variants validate', (name) => {
    const p = getPreset(name);
    const c = presetConfig(name);
    expect(validateConfig(c)).toEqual(c);
    expect(p.explanation.length).toBeGreaterThan(100);
    expect(p.guide.length).toBeGreaterThan(1);
    for (const v of p.variants ?? []) {
      const vc = variantConfig(name, v.label);
      expect(validateConfig(vc)).toEqual(vc);
      for (const key of Object.keys(v.set)) expect(findKnob(key, vc.task), key).toBeDefined();
    }
    for (const key of Object.keys(p.set)) expect(findKnob(key, c.task), key).toBeDefined();
  });

  it.each(PRESET_NAMES)(
    '%s has a step budget (the charts\' x axis and the top bar\'s "step n / budget"), which its variants keep',
    (name) => {
      const c = presetConfig(name);
      expect(c.steps).toBeGreaterThan(0);
      for (const v of getPreset(name).variants ?? []) expect(variantConfig(name, v.label).steps).toBe(c.steps);
    },
  );

  it.each(PRESETS.filter((p) => p.checkpoints?.length).map((p) => p.name))(
    "%s: each trained model's note names the step its file holds (the run config's trainedSteps)",
    (name) => {
      for (const c of getPreset(name).checkpoints ?? []) {
        const { trainedSteps } = shippedCheckpoint(c.file);
        expect(/^seed \d+ at step (\d+)/.exec(c.note)?.[1], `${c.label}: ${c.note}`).toBe(String(trainedSteps));
      }
    },
  );

  // A jump ahead continues with the checkpoint's own config, and the page draws the lesson's recorded
  // runs only under a run of the lesson's own settings: a trained model of other settings would
  // continue another recipe, with no recorded runs beside it.
  it.each(PRESETS.filter((p) => p.checkpoints?.length).map((p) => p.name))(
    "%s: each trained model was trained with the lesson's own settings (seed and step budget aside)",
    (name) => {
      const lesson = presetConfig(name);
      for (const c of getPreset(name).checkpoints ?? []) {
        const ck = shippedCheckpoint(c.file);
        expect({ ...ck.config, seed: 0, steps: 0 }, c.label).toEqual({ ...lesson, seed: 0, steps: 0 });
      }
    },
  );

  it.each(PRESETS.filter((p) => p.walks).map((p) => p.name))(
    "%s: its recorded walks are a walks file whose models are its own trained models, the base model first, on the lesson's maze size",
    (name) => {
      const p = getPreset(name);
      const file = parseRecordedWalks(
        JSON.parse(readFileSync(new URL(`../../public/${p.walks}`, import.meta.url), 'utf8')),
      );
      if (typeof file === 'string') throw new Error(file);
      const shipped = new Map((p.checkpoints ?? []).map((c) => [c.file.split('/').pop(), c]));
      expect(file.models.length).toBeGreaterThanOrEqual(2);
      expect(file.models[0].step).toBe(0);
      for (const m of file.models) {
        const c = shipped.get(m.checkpoint);
        expect(c, `${m.label}: ${m.checkpoint} is not one of the lesson's trained models`).toBeDefined();
        expect(m.label).toBe(c!.label);
        expect(c!.note).toMatch(new RegExp(`^seed \\d+ at step ${m.step}\\b`));
      }
      const size = Number(taskParamsOf(presetConfig(name)).size);
      for (const maze of file.mazes) expect(maze.grid).toHaveLength(size);
    },
  );

  // Its variants and its ablation start from `init` (the page and rlvr sweep): a shipped model
  // of the lesson's own settings (the test above), untrained by RL, and named in the jump menu.
  it.each(PRESETS.filter((p) => p.init).map((p) => p.name))(
    '%s: the weights its variants and ablation start from are its base model, one of its trained models, at step 0',
    (name) => {
      const p = getPreset(name);
      const c = p.checkpoints?.find((k) => k.file === p.init);
      expect(c, `${p.init} is not one of ${name}'s trained models`).toBeDefined();
      expect(shippedCheckpoint(p.init!).trainedSteps).toBe(0);
    },
  );

  it("maze-5x5's shipped models say whose they are: the warm start seed 1 (4,000 supervised steps) at step 0, step 300 seed 1 from it", () => {
    // Their run_config headers were swapped once (warm start: seed 0, steps 300); docs/results.md.
    const warm = shippedCheckpoint('checkpoints/maze-5x5-warm-start.safetensors');
    const rl = shippedCheckpoint('checkpoints/maze-5x5-step300.safetensors');
    expect([warm.config.seed, warm.config.steps, warm.trainedSteps]).toEqual([1, 4000, 0]);
    expect([rl.config.seed, rl.config.steps, rl.trainedSteps]).toEqual([1, 300, 300]);
  });

  it("maze-grpo and maze-dr-grpo start from one base model, each under its lesson's settings; maze-base-rl's is retrained on the split", () => {
    // maze-5x5 starts from a warm start of its own (5×5, on wall walks to G); consensus-collapse
    // from a trained sorter.
    expect(
      PRESETS.filter((p) => p.init)
        .map((p) => p.name)
        .sort(),
    ).toEqual(['consensus-collapse', 'maze-5x5', 'maze-base-rl', 'maze-dr-grpo', 'maze-grpo']);
    const base = (name: string) => shippedCheckpoint(getPreset(name).checkpoints![0].file);
    // maze-base-rl's base was retrained on training mazes only (the train/held-out split); the two
    // GRPO lessons keep the one from before the split, which their recorded runs started from.
    expect(base('maze-base-rl').trainedSteps).toBe(0);
    const first = base('maze-grpo');
    for (const name of ['maze-grpo', 'maze-dr-grpo']) {
      const other = base(name);
      expect(other.trainedSteps, name).toBe(0);
      expect(Array.from(other.params), name).toEqual(Array.from(first.params));
    }
  });

  // What a software GPU cannot show within a class's two minutes, the lesson shows as its recorded
  // runs: the file `rlvr reference` wrote from runs of this lesson's own settings.
  it.each(PRESETS.filter((p) => p.needsGpu).map((p) => p.name))(
    '%s needs a real GPU, so it ships recorded runs of its own settings, within its budget',
    (name) => {
      const file = new URL(`../../public/reference/${name}.json`, import.meta.url);
      const set = JSON.parse(readFileSync(file, 'utf8')) as ReferenceSet;
      expect(set.preset).toBe(name);
      expect(set.source).toMatch(/rlvr train --preset /);
      expect(set.runs.length).toBeGreaterThan(0);
      for (const run of set.runs) {
        const last = run.reward[run.reward.length - 1][0];
        expect(last, `seed ${run.seed}`).toBeGreaterThan(100);
        expect(last, `seed ${run.seed}`).toBeLessThanOrEqual(presetConfig(name).steps);
      }
    },
  );

  it.each(PRESET_NAMES)(
    '%s: a lesson whose measured runs needed a real GPU says so in one short line of its own',
    (name) => {
      const p = getPreset(name);
      const needs = /needs? a real GPU|a real GPU is needed|software GPU that is hours/.test(p.expect);
      expect(p.needsGpu !== undefined, p.expect).toBe(needs);
      if (p.needsGpu) {
        expect(p.needsGpu).toMatch(/^Needs a real GPU: /);
        expect(p.needsGpu.length).toBeLessThanOrEqual(48); // one line beside the guide with the projector zoom at 1024 px
      }
    },
  );

  it('names are unique', () => {
    expect(new Set(PRESET_NAMES).size).toBe(PRESETS.length);
  });

  it('an unknown preset lists the names', () => {
    expect(() => getPreset('cot')).toThrow(ConfigError);
    expect(() => getPreset('cot')).toThrow(
      /^preset must be one of start-here, dead-groups, cot-discovery, .*sort-easy.*; got "cot"$/,
    );
    expect(() => variantConfig('clip-higher', 'nope')).toThrow(/variants "symmetric clip"/);
  });

  it('presetConfig returns a fresh copy', () => {
    const a = presetConfig('sort-easy');
    a.lr = 0.5;
    expect(presetConfig('sort-easy').lr).toBe(0.003);
  });

  it("cot-discovery is the probe's recipe, as validation leaves it, with groups of 16 on chains of 6", () => {
    // The recipe's values are recipes.ts's; its behaviour is held by the golden cot run.
    expect(presetConfig('cot-discovery')).toMatchObject(COT_INTERLEAVED);
    expect(presetConfig('cot-discovery')).toMatchObject({ 'task.length': 6, groupSize: 16, batchPrompts: 16 });
  });

  it('no-cot-room differs from cot-discovery only in the room to think', () => {
    const a = presetConfig('cot-discovery');
    const b = presetConfig('no-cot-room');
    expect({ ...b, 'task.layout': a['task.layout'], 'task.scratch': a['task.scratch'] }).toEqual(a);
    expect(b['task.scratch']).toBe(1);
  });

  it('the larger groups are cot-discovery with the group changed, and for S4 and A5 more samples a step (as many as fit a 1 GB GPU)', () => {
    // The larger groups get longer step budgets (A4 was solved in 1,500–2,100 steps on an H200).
    const cot = presetConfig('cot-discovery');
    expect(presetConfig('cot-a4')).toEqual({ ...cot, 'task.group': 'A4', steps: 2500 });
    expect(variantConfig('cot-a4', 'more samples')).toEqual({
      ...cot,
      'task.group': 'A4',
      batchPrompts: 64,
      steps: 2500,
    });
    expect(presetConfig('cot-s4')).toEqual({
      ...cot,
      'task.group': 'S4',
      batchPrompts: 64,
      groupSize: 32,
      steps: 3500,
    });
    expect(variantConfig('cot-s4', 'as cot-discovery')).toEqual({ ...cot, 'task.group': 'S4', steps: 3500 });
    expect(presetConfig('cot-a5')).toEqual({
      ...cot,
      'task.group': 'A5',
      batchPrompts: 64,
      groupSize: 32,
      steps: 3000,
    });
  });

  it('no-cot-a5 differs from cot-a5 only in the room to think; cot-block from no-cot-room only in the scratchpad', () => {
    const a5 = presetConfig('cot-a5');
    const noA5 = presetConfig('no-cot-a5');
    expect(noA5).toMatchObject({ 'task.layout': 'block', 'task.scratch': 1 });
    expect(variantConfig('no-cot-a5', 'room to think')).toEqual(a5);
    const block = presetConfig('cot-block');
    expect(block).toMatchObject({ 'task.group': 'S3', 'task.layout': 'block', 'task.scratch': 0, 'task.length': 6 });
    expect(variantConfig('cot-block', 'no room')).toEqual(presetConfig('no-cot-room'));
    expect(variantConfig('cot-block', 'interleaved')).toEqual(presetConfig('cot-discovery'));
  });

  it('the lessons added past the flagship come after the ones before them (the page numbers lessons in this order)', () => {
    // Lessons added since come after these.
    const start = PRESET_NAMES.indexOf('cot-a4');
    expect(PRESET_NAMES.slice(start, start + 7)).toEqual([
      'cot-a4',
      'cot-s4',
      'cot-a5',
      'no-cot-a5',
      'cot-block',
      'your-estimator',
      'maze-5x5',
    ]);
    expect(PRESET_NAMES.indexOf('reward-hacking')).toBeGreaterThan(PRESET_NAMES.indexOf('maze-5x5'));
  });

  it("maze-5x5 is maze-base-rl's RL on whole 5×5 mazes from a warm start on the right-hand walk to G", () => {
    const five = presetConfig('maze-5x5');
    expect(five).toMatchObject({
      'task.size': 5,
      'task.minDist': 4,
      'task.solution': 'right-hand',
      curriculum: 'off',
      entropyAlpha: 0,
      lr: 3e-4,
      sftSteps: 0,
    });
    // The rest is maze-base-rl's recipe: the reward, the cell notes, the batch, the anchor.
    const four = presetConfig('maze-base-rl');
    for (const k of [
      'task.reward',
      'task.answer',
      'task.startNote',
      'batchPrompts',
      'groupSize',
      'dynamicSampling',
      'klBeta',
      'refSync',
      'estimator',
    ] as const) {
      expect(five[k], k).toEqual(four[k]);
    }
  });

  it('the Dr. GRPO preset differs from the GRPO one in scale and aggregation', () => {
    const a = presetConfig('maze-grpo');
    const b = presetConfig('maze-dr-grpo');
    expect(b).toMatchObject({ grpoScale: 'none', aggregation: 'seq-mean-token-sum-norm' });
    expect({ ...b, grpoScale: a.grpoScale, aggregation: a.aggregation }).toEqual(a);
  });

  it('clip-higher reuses samples so the clip acts, and sort-easy is tiny', () => {
    expect(presetConfig('clip-higher')).toMatchObject({ epsHigh: 0.28 });
    const c = presetConfig('clip-higher');
    expect(c.epochs * c.minibatches).toBeGreaterThan(1);
    const s = presetConfig('sort-easy');
    expect(modelConfigOf(s).nEmbd * modelConfigOf(s).nLayer).toBeLessThanOrEqual(16);
    expect(s.steps).toBeGreaterThan(0);
  });

  it('presets are small diffs on the defaults', () => {
    const d = defaultConfig();
    for (const p of PRESETS) expect(Object.keys(p.set).length).toBeLessThan(Object.keys(d).length / 2);
  });
});
