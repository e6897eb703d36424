// `npm run bench -- gpu-report`: the one command to run the first time a real GPU is lent.
// It runs, on the adapter the entry opened, what docs/benchmarks.md needs to compare this
// engine with its peers on that GPU, and ends with one Markdown table naming the adapter:
//   1. the kernels suite's sampling part (the fused decode_block against the same sampler kernel
//      by kernel, side by side: whether fusing pays on this adapter), its counts of one RL step
//      (dispatches, submits, readbacks) and, where the adapter has timestamp-query, its profile;
//   2. the peers suite: a train step and KV-cache sampling, this engine and TF.js (WebGPU, same
//      adapter), alternating;
//   3. PyTorch eager and the train step as one CUDA graph (bench/peers/torch_gpt2.py) where
//      python3 imports torch with CUDA; otherwise the table says why that column is empty.
// The table also goes to a file (--md, default bench-results/gpu-report-<date>.md) so that a
// device session that brings back only files still brings it back.

import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { adapterLabel, type GpuContext } from '../gpu/device';
import { kernelsSuite } from './kernels';
import type { KernelsResult } from './kernels-results';
import { peersSuite } from './peers';
import type { PeersResult } from './peers-results';
import { markdownTable, sig3, type Cell } from './text-table';
import { fileTimestamp, type BenchOptions, type BenchSuite } from './suite';

/** What bench/peers/torch_gpt2.py prints (the fields this report reads). */
export interface TorchResult {
  device: string;
  torch: string;
  models: {
    name: string;
    eager: { train_step: { median_ms: number }; sampling: { tokens_per_s: number } };
    graph: { train_step: { median_ms: number } } | { error: string } | null;
  }[];
}

export interface GpuReport {
  adapter: string;
  N: number;
  T: number;
  kernels: KernelsResult;
  peers: PeersResult;
  torch: TorchResult | { unavailable: string };
  markdown: string;
}

const TORCH_SCRIPT = 'bench/peers/torch_gpt2.py';

/** PyTorch with CUDA, run as the peers' third side; a reason in words where it cannot run. */
function runTorch(
  N: number,
  T: number,
  models: string[],
  reps: number,
  timeoutMs: number,
): TorchResult | { unavailable: string } {
  const probe = spawnSync('python3', ['-c', 'import torch, transformers; print(torch.cuda.is_available())'], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (probe.error) return { unavailable: `python3 did not start (${probe.error.message})` };
  if (probe.status !== 0)
    return {
      unavailable: `python3 has no torch or transformers (${(probe.stderr || '').trim().split('\n').at(-1) ?? ''})`,
    };
  if (probe.stdout.trim() !== 'True') return { unavailable: 'torch sees no CUDA GPU' };
  const run = spawnSync(
    'python3',
    [
      TORCH_SCRIPT,
      '--batch',
      String(N),
      '--time',
      String(T),
      '--models',
      models.join(','),
      '--reps',
      String(Math.max(reps, 5)),
    ],
    { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 16 << 20 },
  );
  if (run.error) return { unavailable: `${TORCH_SCRIPT} failed to finish (${run.error.message})` };
  if (run.status !== 0)
    return {
      unavailable: `${TORCH_SCRIPT} exited ${run.status}: ${(run.stderr || '').trim().split('\n').at(-1) ?? ''}`,
    };
  try {
    return JSON.parse(run.stdout) as TorchResult;
  } catch {
    return { unavailable: `${TORCH_SCRIPT} printed no JSON` };
  }
}

const ms = (x: number | undefined | null): Cell =>
  x === undefined || x === null || !Number.isFinite(x) ? '–' : sig3(x);
const times = (x: number | null | undefined): Cell =>
  x === undefined || x === null || !Number.isFinite(x) ? '–' : `${x.toFixed(2)}×`;

/** The report's table: one row per model size, every number measured in this one run. */
export function gpuReportMarkdown(
  adapter: string,
  kernels: KernelsResult,
  peers: PeersResult,
  torch: TorchResult | { unavailable: string },
): string {
  const torchOk = 'models' in torch ? torch : null;
  const rows: Cell[][] = peers.models.map((p) => {
    const k = kernels.models.find((m) => m.name === p.name);
    const c = k?.counts ?? null;
    const tf = 'error' in p.tfjs ? null : p.tfjs;
    const t = torchOk?.models.find((m) => m.name === p.name) ?? null;
    const eager = t?.eager.train_step.median_ms ?? null;
    const graph = t?.graph && 'train_step' in t.graph ? t.graph.train_step.median_ms : null;
    const eagerTok = t?.eager.sampling.tokens_per_s ?? null;
    const engineMs = p.engine.trainStep.medianMs;
    const engineTok = p.engine.sampling.tokensPerS;
    return [
      `${p.name} (${p.params.toLocaleString('en-US')})`,
      c ? `${c.dispatches.perStep} (${c.dispatches.trainStep} + ${c.dispatches.samplePerToken}/token)` : '–',
      c ? `${c.submitsPerStep} / ${c.readbacksPerStep}` : '–',
      ms(engineMs),
      ms(tf?.trainStep.medianMs),
      ms(eager),
      ms(graph),
      times(eager === null ? null : eager / engineMs),
      ms(engineTok),
      ms(tf?.sampling.tokensPerS),
      ms(eagerTok),
      times(eagerTok === null ? null : engineTok / eagerTok),
      times(tf ? engineTok / tf.sampling.tokensPerS : null),
      times(k?.sampling?.fusedSpeedup ?? null),
    ];
  });
  const table = markdownTable(
    [
      'model (params)',
      'dispatches per RL step (train step + per token)',
      'submits / readbacks',
      'train step ms: engine',
      'TF.js',
      'PyTorch eager',
      'CUDA graph',
      'eager ÷ engine',
      'sampling tok/s: engine',
      'TF.js',
      'PyTorch eager',
      'engine ÷ eager',
      'engine ÷ TF.js',
      'fused decode ÷ by kernel',
    ],
    rows,
  );
  const tfNote =
    'error' in peers.tfjs
      ? `TF.js did not start: ${peers.tfjs.error}.`
      : `TF.js ${peers.tfjs.version} (${peers.tfjs.backend}) on the same adapter.`;
  const torchNote = torchOk
    ? `PyTorch ${torchOk.torch} on ${torchOk.device}.`
    : `PyTorch: not run (${(torch as { unavailable: string }).unavailable}).`;
  return [
    `Adapter: ${adapter}. Batch N ${peers.N} × T ${peers.T}; median wall ms of ${peers.reps} reps, engine and TF.js alternating; ` +
      `counts of one RL step from the kernels suite. ${tfNote} ${torchNote}`,
    '',
    table,
  ].join('\n');
}

async function run(gpu: GpuContext, opts: BenchOptions): Promise<GpuReport> {
  const { out, progress } = opts;
  const shared = { models: opts.flags.models, batch: opts.flags.batch, time: opts.flags.time };
  // The inner suites' own tables go to stderr as progress: stdout keeps the report.
  const inner = { ...opts, out: (line: string) => progress(line) };
  progress(
    'gpu-report 1/3: the fused decode against the same sampler kernel by kernel, counts of one RL step and, where timestamps exist, the per-kernel profile …',
  );
  const kernels = (await kernelsSuite.run(gpu, {
    ...inner,
    reps: 1,
    warmup: 0,
    flags: { ...shared, parts: 'sample,counts,profile' },
  })) as KernelsResult;
  progress('gpu-report 2/3: train step and sampling, this engine beside TF.js …');
  const peers = (await peersSuite.run(gpu, { ...inner, flags: shared })) as PeersResult;
  progress('gpu-report 3/3: PyTorch eager and CUDA graph, where python3 has torch and a CUDA GPU …');
  const torch = runTorch(
    peers.N,
    peers.T,
    peers.models.map((m) => m.name),
    opts.reps,
    300_000,
  );
  const adapter = adapterLabel(gpu.adapter, true);
  const markdown = gpuReportMarkdown(adapter, kernels, peers, torch);
  out('');
  out('── GPU report as Markdown (docs/benchmarks.md)');
  out(markdown);
  const file =
    typeof opts.flags.md === 'string' ? opts.flags.md : `bench-results/gpu-report-${fileTimestamp(new Date())}.md`;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, markdown + '\n');
  out(`\nthe table also written to ${file}`);
  return { adapter, N: peers.N, T: peers.T, kernels, peers, torch, markdown };
}

export const gpuReportSuite: BenchSuite = {
  name: 'gpu-report',
  summary:
    'the first run on a lent GPU: counts and profile (kernels), engine beside TF.js (peers), PyTorch eager and CUDA graph where present, as one Markdown table naming the adapter',
  // The peers suite's --models, --batch and --time, passed on to both inner suites.
  flags: {
    ...peersSuite.flags,
    md: { kind: 'value', doc: 'where to write the Markdown table (default bench-results/gpu-report-<date>.md)' },
  },
  defaultReps: (quick) => (quick ? 3 : 5),
  run,
};
