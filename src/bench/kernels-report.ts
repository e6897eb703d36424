// The kernels suite's results as Markdown: per model the matmul variants, and a summary table
// over the models (what docs/benchmarks.md shows).

import type { MatmulVariant } from '../gpu/ops';
import { formatTable, markdownTable, sig3, type Cell } from './text-table';
import type { ModelResult } from './kernels-results';
import type { StepCounts } from './step-counts';
import type { ReductionsResult } from './kernels-reductions';

// ─── report ─────────────────────────────────────────────────────────────────────────────────

const f3 = (x: number | null | undefined): Cell =>
  x === null || x === undefined || !Number.isFinite(x) ? null : sig3(x);
const ratioCell = (x: number | null | undefined): Cell =>
  x === null || x === undefined || !Number.isFinite(x) ? null : x.toFixed(2);
/** A ratio as "1.23×" (NaN as NaN×: a missing time shows), or null where it was not measured. */
const timesCell = (x: number | null | undefined): Cell => (x === null || x === undefined ? null : `${x.toFixed(2)}×`);

export function matmulTable(m: ModelResult, variants: MatmulVariant[]): string {
  const rows = (m.matmul ?? []).map((r) => [
    r.label,
    r.shape,
    r.calls,
    ...variants.map((v) => f3(r.variants[v]?.medianMs)),
    ...variants.map((v) => f3(r.variants[v]?.gflops)),
    ratioCell(r.tunedOverNaive),
    r.best,
  ]);
  const headers = [
    'matmul',
    'M×K×N',
    'calls',
    ...variants.map((v) => `${v} ms`),
    ...variants.map((v) => `${v} GF/s`),
    'tuned/naive',
    'best',
  ];
  return formatTable(headers, rows);
}

/** The train step's matmul time with naive over that with the best variant, where naive was measured. */
function bestOverNaive(m: ModelResult): number | null {
  const ms = m.matmulStep;
  return ms && ms.ms.naive !== undefined ? ms.ms.naive / (ms.ms[ms.best] ?? NaN) : null;
}

export function summaryTable(models: ModelResult[], variants: MatmulVariant[]): string {
  const headers = [
    'model',
    'params',
    ...variants.map((v) => `step ${v} ms`),
    'step tuned/naive',
    'sample variant',
    'KV tok/s',
    'no-cache tok/s',
    'KV speedup',
    'matmul best',
    'best/naive',
  ];
  const rows = models.map((m): Cell[] => [
    m.name,
    m.params,
    ...variants.map((v) => f3(m.trainStep?.variants[v]?.medianMs)),
    ratioCell(m.trainStep?.tunedOverNaive),
    m.sampling?.variant ?? null,
    f3(m.sampling?.kvCache.tokensPerS),
    f3(m.sampling?.noCache.tokensPerS),
    ratioCell(m.sampling?.speedup),
    m.matmulStep?.best ?? null,
    ratioCell(bestOverNaive(m)),
  ]);
  return formatTable(headers, rows);
}

/** The compact table of docs/benchmarks.md (Markdown): one row per model size. */
export function markdownSummary(models: ModelResult[], variants: MatmulVariant[]): string {
  const headers = [
    'model (params)',
    `train step ms (${variants.join(' / ')})`,
    'step tuned/naive',
    'sampling tok/s, KV cache',
    'tok/s, no cache',
    'KV speedup',
    'best matmul',
    'its GFLOP/s vs naive',
  ];
  const rows = models.map((m) => {
    const steps = m.trainStep ? variants.map((v) => sig3(m.trainStep?.variants[v]?.medianMs ?? NaN)).join(' / ') : null;
    return [
      `${m.name} (${m.params.toLocaleString('en-US')})`,
      steps,
      ratioCell(m.trainStep?.tunedOverNaive),
      f3(m.sampling?.kvCache.tokensPerS),
      f3(m.sampling?.noCache.tokensPerS),
      timesCell(m.sampling?.speedup),
      m.matmulStep?.best ?? null,
      timesCell(bestOverNaive(m)),
    ] as Cell[];
  });
  return markdownTable(headers, rows);
}

/** One RL step's counts per model size (Markdown): what the CPU asks of the GPU. */
export function countsMarkdown(models: { name: string; params: number; counts: StepCounts }[]): string {
  const headers = [
    'model (params)',
    'N × T',
    'dispatches / token (sampling)',
    'sampling run',
    'train step',
    'statistics',
    'estimator',
    'dispatches / RL step',
    'compute passes',
    'submits',
    'readbacks',
    'bytes written',
  ];
  const rows = models.map(
    ({ name, params, counts: c }) =>
      [
        `${name} (${params.toLocaleString('en-US')})`,
        `${c.N} × ${c.T}`,
        c.dispatches.samplePerToken,
        c.dispatches.sampleRun,
        c.dispatches.trainStep,
        c.dispatches.statistics,
        c.dispatches.estimator,
        c.dispatches.perStep,
        c.computePassesPerStep,
        c.submitsPerStep,
        c.readbacksPerStep,
        c.bytesWrittenPerStep,
      ] as Cell[],
  );
  return markdownTable(headers, rows);
}

/** One model's reduction timings as text: kernel, median ms with subgroups and with the tree, the ratio. */
export function reductionsLine(r: ReductionsResult): string {
  const head = r.subgroups
    ? `reductions, subgroups (sizes ${r.subgroupSizes ? `${r.subgroupSizes.min}–${r.subgroupSizes.max}` : 'not reported'}) vs tree, median wall ms per call:`
    : `reductions: this device uses no subgroups (${r.notes.join('; ') || 'not offered'}); tree only, median wall ms per call:`;
  const items = r.kernels.map(
    (k) =>
      `${k.kernel} (${k.shape}) ` +
      (k.subgroupsMs === null
        ? `tree ${sig3(k.treeMs)}`
        : `subgroups ${sig3(k.subgroupsMs)}, tree ${sig3(k.treeMs)}, tree/subgroups ${k.treeOverSubgroups!.toFixed(2)}×, max |Δ| ${k.maxAbsDiff!.toExponential(1)}`),
  );
  return [head, ...items.map((s) => `  ${s}`)].join('\n');
}

/** The reduction timings of every model as Markdown (docs/benchmarks.md). */
export function reductionsMarkdown(models: { name: string; reductions: ReductionsResult }[]): string {
  const rows = models.flatMap(({ name, reductions }) =>
    reductions.kernels.map((k) => [
      name,
      k.kernel,
      k.shape,
      f3(k.subgroupsMs),
      f3(k.treeMs),
      ratioCell(k.treeOverSubgroups),
      k.maxAbsDiff === null ? null : k.maxAbsDiff.toExponential(1),
    ]),
  );
  return markdownTable(['model', 'kernel', 'shape', 'subgroups ms', 'tree ms', 'tree/subgroups', 'max abs diff'], rows);
}
