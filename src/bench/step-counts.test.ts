// One RL step's counts add up: the device-side count of dispatches is the sum of the phases the
// engine reports, and the step keeps to its budget of submits and readbacks.
import { describe, expect } from 'vitest';
import { gpuIt } from '../gpu/testing';
import { countRlStep } from './step-counts';
import { buildLayout } from '../model/layout';
import { BENCH_MODELS } from './models';

describe('countRlStep', () => {
  gpuIt('counts one RL step of the 30K model by phase', async ({ device }) => {
    const layout = buildLayout(BENCH_MODELS.find((m) => m.name === '30K')!.config);
    const N = 2,
      T = 4;
    const c = await countRlStep(device, layout, N, T, 'tuned');
    const d = c.dispatches;
    expect(d.sampleRun).toBe(d.samplePerToken * (T - 1));
    expect(d.perStep).toBe(d.sampleRun + d.trainStep + d.statistics);
    expect(c.sample.dispatches).toBe(d.sampleRun);
    expect(c.update.dispatches).toBe(d.trainStep + d.statistics);
    expect(c.readbacksPerStep).toBe(2); // the sampled tokens, the statistics
    // One command buffer per phase: sample and read the tokens; update and read the statistics.
    expect(c.sample.submits).toBe(1);
    expect(c.update.submits).toBe(1);
    expect(c.submitsPerStep).toBe(2);
    // Written from the CPU: at least the template [N,T] and the six training inputs [N,T].
    expect(c.bytesWrittenPerStep).toBeGreaterThanOrEqual(7 * N * T * 4);
    console.log(
      `30K, N ${N} × T ${T}: ${JSON.stringify({ ...d, passes: c.computePassesPerStep, submits: c.submitsPerStep, bytes: c.bytesWrittenPerStep })}`,
    );
  });
});
