// learnedTable on the CPU engine (and, with an adapter, the GPU engine against it).
import { describe, expect, it } from 'vitest';
import { buildLayout, view } from '../model/layout';
import { initParams } from '../model/init';
import { createActivations, forward } from '../reference/model';
import { getGroup } from '../tasks/groupmul';
import { EOS, NUM_SPECIAL } from '../tasks/types';
import { CpuEngine } from './cpu-engine';
import { DEFAULT_ENGINE_SETTINGS } from './engine';
import { GpuEngine } from './gpu-engine';
import { gpuIt } from '../gpu/testing';
import { learnedTable, probeLength, probeTemplate, tableProbeOf } from './learned-table';
import { groupmulTask } from '../tasks/groupmul';
import { parseParams } from '../tasks/params';
import { presetConfig } from '../lessons/presets';
import { mergeConfig } from '../config/config';

const GROUP = 'S3'; // order 6 → vocab 10
const n = getGroup(GROUP).order;
const probeOf = (group: string) =>
  groupmulTask.tableProbe!(parseParams(groupmulTask, { group, layout: 'interleaved', length: 2 }))!;
const probe = probeOf(GROUP);
const PROBE_T = probeLength(probe);
const layout = buildLayout({ vocabSize: NUM_SPECIAL + n, nPositions: 8, nEmbd: 8, nLayer: 1, nHead: 2 });
const V = layout.config.vocabSize;

/** Reference logits at the probe's last input row (position 3, predicting position 4), [n², V]. */
function referenceLogits(params: Float32Array): Float32Array {
  const N = n * n;
  const tokens = Int32Array.from(probeTemplate(probe), (t) => Math.max(t, 0));
  const logits = forward(layout, params, tokens, N, PROBE_T, createActivations(layout.config, N, PROBE_T));
  const out = new Float32Array(N * V);
  for (let r = 0; r < N; r++) out.set(logits.subarray((r * PROBE_T + 3) * V, (r * PROBE_T + 4) * V), r * V);
  return out;
}

function softmaxMax(z: ArrayLike<number>): { arg: number; p: number } {
  let arg = 0;
  for (let i = 1; i < z.length; i++) if (z[i] > z[arg]) arg = i;
  let s = 0;
  for (let i = 0; i < z.length; i++) s += Math.exp(z[i] - z[arg]);
  return { arg, p: 1 / s };
}

describe('learnedTable', () => {
  it('probe rows are [BOS, a, a, x, ?] with element i as token 4 + i', () => {
    const t = probeTemplate(probeOf('Z3'));
    expect(PROBE_T).toBe(5);
    expect(Array.from(t.subarray(PROBE_T * 5, PROBE_T * 6))).toEqual([1, 5, 5, 6, -1]); // a = 1, x = 2
  });

  it('the task says which configs have a table: groupmul interleaved with chains of two or more', () => {
    const cot = presetConfig('cot-discovery');
    expect(tableProbeOf(cot)?.labels).toEqual(getGroup('S3').elementNames);
    expect(tableProbeOf(mergeConfig(cot, { 'task.layout': 'block' }))).toBeNull();
    expect(tableProbeOf(mergeConfig(cot, { 'task.length': 1, curriculum: 'off', refSync: 'none' }))).toBeNull();
    expect(tableProbeOf(presetConfig('sort-easy'))).toBeNull();
  });

  it('has the group shape, probabilities in (0, 1], the true table, and the reference argmax', async () => {
    const params = initParams(layout, 7);
    const table = await learnedTable(new CpuEngine(layout, params, DEFAULT_ENGINE_SETTINGS), probe, { seed: 3 });
    expect(table.elements).toEqual(getGroup(GROUP).elementNames);
    for (const m of [table.argmax, table.prob, table.truth]) {
      expect(m).toHaveLength(n);
      for (const row of m) expect(row).toHaveLength(n);
    }
    expect(table.truth).toEqual(getGroup(GROUP).table.map((r) => [...r]));
    const logits = referenceLogits(params);
    for (let a = 0; a < n; a++) {
      for (let x = 0; x < n; x++) {
        const p = table.prob[a][x];
        expect(p).toBeGreaterThan(0);
        expect(p).toBeLessThanOrEqual(1);
        const ref = softmaxMax(logits.subarray((a * n + x) * V, (a * n + x + 1) * V));
        const element = ref.arg - NUM_SPECIAL;
        expect(table.argmax[a][x]).toBe(element >= 0 && element < n ? element : -1);
        expect(p).toBeCloseTo(ref.p, 5);
      }
    }
  });

  // A model whose output we control: ln_f gain 0 makes the last hidden state the ln_f bias for
  // every input, so logits_v = bias · wte_v; channel 0 of wte then decides the winner.
  function constantModel(winner: number): Float32Array {
    const params = initParams(layout, 1);
    view(params, layout.lnfw).fill(0);
    const bias = view(params, layout.lnfb);
    bias.fill(0);
    bias[0] = 4;
    const wte = view(params, layout.wte);
    const C = layout.config.nEmbd;
    for (let v = 0; v < V; v++) wte[v * C] = v === winner ? 1 : 0;
    return params;
  }
  const constantProb = Math.exp(4) / (Math.exp(4) + V - 1);

  it('reads a model that always answers one element as that element everywhere', async () => {
    const table = await learnedTable(
      new CpuEngine(layout, constantModel(NUM_SPECIAL + 2), DEFAULT_ENGINE_SETTINGS),
      probe,
      { seed: 0 },
    );
    for (let a = 0; a < n; a++) {
      expect(table.argmax[a]).toEqual(new Array(n).fill(2));
      for (const p of table.prob[a]) expect(p).toBeCloseTo(constantProb, 5);
    }
  });

  it('gives −1 where the most likely token is not an element', async () => {
    const table = await learnedTable(new CpuEngine(layout, constantModel(EOS), DEFAULT_ENGINE_SETTINGS), probe, {
      seed: 0,
    });
    for (const row of table.argmax) expect(row).toEqual(new Array(n).fill(-1));
  });

  it('names the missing vocabulary when the model is too small for the group', async () => {
    await expect(
      learnedTable(new CpuEngine(layout, initParams(layout, 1), DEFAULT_ENGINE_SETTINGS), probeOf('S4'), { seed: 0 }),
    ).rejects.toThrow(/vocabulary of 28/);
  });

  gpuIt("the GPU engine gives the CPU engine's table", async ({ device }) => {
    const params = initParams(layout, 11);
    const gpu = new GpuEngine(device, layout, params, DEFAULT_ENGINE_SETTINGS);
    try {
      const [g, c] = await Promise.all([
        learnedTable(gpu, probe, { seed: 5 }),
        learnedTable(new CpuEngine(layout, params, DEFAULT_ENGINE_SETTINGS), probe, { seed: 5 }),
      ]);
      expect(g.argmax).toEqual(c.argmax);
      for (let a = 0; a < n; a++)
        for (let x = 0; x < n; x++) expect(Math.abs(g.prob[a][x] - c.prob[a][x])).toBeLessThan(1e-4);
    } finally {
      gpu.destroy();
    }
  });
});
