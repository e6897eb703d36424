// The GPU report's table: every column comes from the run's own results, and a peer that could
// not run says why instead of a number.
import { describe, expect, it } from 'vitest';
import { gpuReportMarkdown, type TorchResult } from './gpu-report';
import type { KernelsResult } from './kernels-results';
import type { PeersResult } from './peers-results';

const times = (medianMs: number) => ({ medianMs, minMs: medianMs, samplesMs: [medianMs] });
const kernels = {
  models: [
    {
      name: '30K',
      sampling: { fusedSpeedup: 0.5 },
      counts: {
        dispatches: { perStep: 188, trainStep: 86, samplePerToken: 6 },
        submitsPerStep: 2,
        readbacksPerStep: 2,
      },
    },
  ],
} as unknown as KernelsResult;
const peers = {
  N: 64,
  T: 32,
  reps: 5,
  tfjs: { version: '4.22.0', backend: 'webgpu', adapter: 'x', maxStorageBuffersPerStage: 10 },
  models: [
    {
      name: '30K',
      params: 28544,
      engine: { trainStep: times(2), sampling: { ...times(10), tokensPerS: 20000 } },
      tfjs: { trainStep: times(8), sampling: { ...times(100), tokensPerS: 1000 } },
    },
  ],
} as unknown as PeersResult;
const torch: TorchResult = {
  device: 'NVIDIA H200',
  torch: '2.5.0',
  models: [
    {
      name: '30K',
      eager: { train_step: { median_ms: 5 }, sampling: { tokens_per_s: 4000 } },
      graph: { train_step: { median_ms: 1 } },
    },
  ],
};

/** The cells of the Markdown table row that starts with `first` (the empty ends included). */
function rowCells(md: string, first: string): string[] {
  const line = md.split('\n').find((l) => l.startsWith(`| ${first}`));
  if (line === undefined) throw new Error(`no row starts with ${first}`);
  return line.split('|').map((c) => c.trim());
}

describe('gpuReportMarkdown', () => {
  it('one row per model: counts, the three train steps and samplers, and the ratios measured in the run', () => {
    const md = gpuReportMarkdown('nvidia / hopper', kernels, peers, torch);
    expect(md).toContain('Adapter: nvidia / hopper. Batch N 64 × T 32');
    expect(md).toContain('PyTorch 2.5.0 on NVIDIA H200.');
    const row = rowCells(md, '30K');
    // model, dispatches, submits/readbacks, engine, TF.js, eager, graph, eager÷engine, tok/s engine, TF.js, eager, engine÷eager, engine÷TF.js, fused÷by kernel
    expect(row.slice(1, -1)).toEqual([
      '30K (28,544)',
      '188 (86 + 6/token)',
      '2 / 2',
      '2.00',
      '8.00',
      '5.00',
      '1.00',
      '2.50×',
      '20000',
      '1000',
      '4000',
      '5.00×',
      '20.00×',
      '0.50×',
    ]);
  });

  it('a peer that did not run leaves dashes and says why', () => {
    const noTf = {
      ...peers,
      tfjs: { error: 'no adapter' },
      models: [{ ...peers.models[0], tfjs: { error: 'no adapter' } }],
    } as unknown as PeersResult;
    const md = gpuReportMarkdown('swiftshader', kernels, noTf, { unavailable: 'torch sees no CUDA GPU' });
    expect(md).toContain('TF.js did not start: no adapter.');
    expect(md).toContain('PyTorch: not run (torch sees no CUDA GPU).');
    const row = rowCells(md, '30K');
    expect(row.slice(4, 9)).toEqual(['2.00', '–', '–', '–', '–']);
  });
});
