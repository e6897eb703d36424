// Does RL learn? The sanity task from scratch, on the WGSL engine: greedy pass@1 goes from chance
// to ≥ 0.9 within a fixed step budget (seeded, so the run is reproducible on one adapter;
// `npm run bench -- learning --preset sort-easy` reports the spread over seeds).
//
// Measured on the curriculum check's training prompts, not held-out ones: sort-easy's space is 27
// sequences, and the train/held-out split (src/tasks/split.ts) holds out one of them, too few
// for a figure (rlvr eval says so). This test asks whether the pipeline learns, not whether it
// generalises.
import { describe, expect } from 'vitest';
import { gpuIt } from '../gpu/testing';
import { presetConfig } from '../config/presets';
import { mergeConfig } from '../config/config';
import { Trainer } from './trainer';
import { GpuEngine } from './gpu-engine';

const BUDGET = 300; // the lesson's own step budget (presets: sort-easy)
const CHECK_EVERY = 25;

describe('learning', () => {
  gpuIt(
    `sort-easy from scratch: greedy pass@1 on 32 training prompts rises from chance to ≥ 0.9 within ${BUDGET} steps`,
    async ({ device }) => {
      const config = mergeConfig(presetConfig('sort-easy'), { seed: 1, evalEvery: 0, evalPrompts: 32 });
      const t = await Trainer.create(config, (l, p, s) => new GpuEngine(device, l, p, s));
      const before = await t.greedyPassRate();
      const t0 = performance.now();
      // Checked every 25 steps, stopping at the first check past 0.9: "within the budget" is the
      // claim, and a greedy curve on 32 prompts moves by 1/32 between neighbouring checks.
      const curve: string[] = [];
      let reached = -1;
      for (let step = 1; step <= BUDGET && reached < 0; step++) {
        await t.step();
        if (step % CHECK_EVERY !== 0) continue;
        const rate = await t.greedyPassRate();
        curve.push(`${step}: ${rate.toFixed(3)}`);
        if (rate >= 0.9) reached = step;
      }
      console.log(
        `sort-easy seed 1: greedy pass@1 ${before.toFixed(3)} at step 0; ${curve.join(', ')} (${((performance.now() - t0) / 1000).toFixed(0)} s)`,
      );
      expect(before).toBeLessThan(0.3);
      expect(reached, `greedy pass@1 never reached 0.9 by step ${BUDGET}: ${curve.join(', ')}`).toBeGreaterThan(0);
      t.destroy();
    },
    300_000,
  );
});
