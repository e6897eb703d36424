// The controller and a lesson: its comparison variants (from the lesson's base weights when it
// has them), its trained models with their recorded runs and a preview group, and picking one.

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { presetConfig } from '../lessons';
import { loadCheckpoint } from '../store/checkpointFile';
import type { Command, RolloutView } from '../worker/protocol';
import { readySetup, setup, types } from './testController';

describe('PlaygroundController', () => {
  it("a variant keeps the seed and the step budget, is labelled by its name, starts, and is overlaid on the preset's run", () => {
    const config = { ...presetConfig('mapp-vs-grpo'), seed: 568314, steps: 80 };
    const t = setup(config, 'mapp-vs-grpo');
    t.controller.prepare();
    t.ready();
    t.step(1);
    t.frame();
    const parent = t.s().runs[0];
    t.controller.runVariant('GRPO');
    expect(t.s().config).toMatchObject({ seed: 568314, steps: 80, estimator: 'grpo' });
    expect(t.s().preset).toBe('mapp-vs-grpo');
    expect(types(t.sent).slice(-2)).toEqual(['init', 'start']);
    expect(t.s().activeRunId).toBeNull();
    expect(t.s().overlay).toEqual([parent.id]);
    t.ready();
    t.step(1);
    t.frame();
    expect(t.s().runs.map((r) => [r.label, r.variant])).toEqual([
      ['mapp-vs-grpo: seed 1→568314', undefined],
      ['GRPO', 'GRPO'],
    ]);
    // Back to the preset itself: same seed and budget, no variant.
    t.controller.runVariant(null);
    expect(t.s().config).toEqual({ ...presetConfig('mapp-vs-grpo'), seed: 568314, steps: 80 });
  });

  it('a lesson that starts from its base model runs its variants from those weights, fetched, not from random ones', async () => {
    const fetched: string[] = [];
    const site = (path: string) => {
      fetched.push(path);
      return Promise.resolve(new Uint8Array(readFileSync(new URL(`../../public/${path}`, import.meta.url))));
    };
    const t = setup({ ...presetConfig('maze-grpo'), steps: 80 }, 'maze-grpo', site);
    t.controller.prepare();
    t.ready();
    await t.controller.runVariant('Dr. GRPO');
    expect(fetched).toEqual(['checkpoints/maze-grpo-base.safetensors']);
    const init = t.sent.at(-2) as Extract<Command, { type: 'init' }>;
    expect(types(t.sent).slice(-2)).toEqual(['init', 'start']);
    expect(init.config).toEqual({ ...presetConfig('maze-dr-grpo'), steps: 80 });
    expect(Array.from(init.params!)).toEqual(
      Array.from(loadCheckpoint(await site('checkpoints/maze-grpo-base.safetensors'), 'base').params),
    );
    expect(init.resume).toBeUndefined(); // a fresh run at step 0, from the base model's weights
    // A file that cannot be had: the reason on screen, and nothing starts.
    const broken = setup(presetConfig('maze-grpo'), 'maze-grpo', () => Promise.reject(new Error('HTTP 404')));
    broken.controller.prepare();
    await broken.controller.runVariant(null);
    expect(types(broken.sent)).toEqual(['init']);
    expect(broken.s().notice).toMatchObject({ kind: 'error' });
    expect(broken.s().notice?.text).toMatch(
      /Could not load the model the lesson's runs start from \(checkpoints\/maze-grpo-base\.safetensors\): HTTP 404/,
    );
  });

  it("a lesson's trained model brings its recorded runs (the jump) and one preview group after ready; a reset forgets them", async () => {
    const site = (path: string) =>
      Promise.resolve(new Uint8Array(readFileSync(new URL(`../../public/${path}`, import.meta.url))));
    const t = setup(presetConfig('cot-discovery'), 'cot-discovery', site);
    t.controller.prepare();
    t.ready();
    await t.controller.loadLessonCheckpoint('checkpoints/cot-discovery-solved.safetensors', 'solved (length 6)');
    expect(t.s().jump).toEqual({
      preset: 'cot-discovery',
      step: 800,
      seed: 0,
      file: 'checkpoints/cot-discovery-solved.safetensors',
      label: 'solved (length 6)',
    });
    expect(types(t.sent).at(-1)).toBe('init');
    t.ready();
    expect(types(t.sent).slice(-2)).toEqual(['learnedTable', 'preview']);
    const preview = { step: 800, preview: true } as unknown as RolloutView;
    t.emit({ type: 'preview', rollout: preview });
    expect(t.s().rollout).toBe(preview);
    // No run and no step of it: the preview updated nothing.
    expect(t.s().runs.filter((r) => r.points.length > 0)).toEqual([]);
    expect(t.s().step).toBe(800);
    // A step's rollouts replace it; a late preview does not replace a step's.
    t.controller.step();
    t.step(801);
    t.frame();
    t.emit({ type: 'preview', rollout: preview });
    expect(t.s().rollout?.step).toBe(801);
    // The same file imported: the lesson is recognised by its settings.
    t.controller.importFile('mine.safetensors', await site('checkpoints/cot-discovery-solved.safetensors'));
    expect(t.s().jump).toMatchObject({ preset: 'cot-discovery', step: 800, seed: 0, file: 'mine.safetensors' });
    t.controller.reset();
    expect(t.s().jump).toBeNull();
    t.ready();
    expect(types(t.sent).at(-1)).toBe('init'); // a fresh model: no preview
  });

  it('picking a preset is a reset: its config, a new run, nothing overlaid, the guide from its first step', () => {
    const t = readySetup();
    t.controller.start();
    t.step(1);
    t.frame();
    t.s().toggleOverlay(t.s().runs[0].id);
    t.s().setGuideStep(2);
    t.controller.choosePreset('dead-groups');
    expect(t.s().config).toEqual(presetConfig('dead-groups'));
    expect(t.s().preset).toBe('dead-groups');
    expect(t.sent.at(-1)).toEqual({ type: 'init', config: presetConfig('dead-groups') });
    expect(t.s()).toMatchObject({ activeRunId: null, overlay: [], guideStep: 0, status: 'starting', step: 0 });
  });
});
