// Does RL learn? The sanity task from scratch, on the WGSL engine: greedy held-out pass@1
// goes from chance to ≥ 0.9 within a fixed step budget (seeded, so the run is reproducible on
// one adapter; `npm run bench -- learning --preset sort-easy` reports the spread over seeds).
import { describe, expect } from 'vitest';
import { gpuIt } from '../gpu/testing';
import { presetConfig } from '../config/presets';
import { mergeConfig } from '../config/config';
import { Trainer } from './trainer';
import { GpuEngine } from './gpu-engine';

describe('learning', () => {
  gpuIt('sort-easy from scratch: greedy held-out pass@1 rises from chance to ≥ 0.9 within 200 steps', async ({ device }) => {
    const config = mergeConfig(presetConfig('sort-easy'), { seed: 1, evalEvery: 0, evalPrompts: 32 });
    const t = await Trainer.create(config, (l, p, s) => new GpuEngine(device, l, p, s));
    const before = await t.greedyPassRate();
    const t0 = performance.now();
    let after = 0;
    for (let i = 0; i < 200; i++) await t.step();
    after = await t.greedyPassRate();
    console.log(`sort-easy seed 1: greedy held-out pass@1 ${before.toFixed(3)} → ${after.toFixed(3)} after 200 steps (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    expect(before).toBeLessThan(0.3);
    expect(after).toBeGreaterThanOrEqual(0.9);
    t.destroy();
  }, 300_000);
});
