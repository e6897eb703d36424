// A profile of a plan: GPU time per dispatch (from ./dispatch-profiler.ts) grouped by kernel,
// with each kernel's share of the total and the throughput it achieved (GFLOP/s where its
// flops are counted, GB/s of useful traffic; src/gpu/kernel-work.ts). Pure: no GPU here.

import { median } from '../core/numeric';
import { formatTable, markdownTable, sig3, type Cell } from './text-table';

/** One dispatch of a profiled run: its kernel, its work, its GPU time. */
export interface DispatchSample {
  /** The kernel, e.g. "matmul.tuned", "layernorm_forward". */
  kernel: string;
  /** The call's shape ("512×32×128 Aᵀ +="; "" when unknown). */
  shape: string;
  flops: number | null;
  bytes: number | null;
  /** GPU µs between the timestamps at the start and the end of its pass. */
  us: number;
}

export interface KernelRow {
  /** The kernel (or kernel and shape, for a by-shape grouping). */
  name: string;
  calls: number;
  /** Σ µs of its calls. */
  us: number;
  /** us / the profile's total µs. */
  share: number;
  /** Σ flops / Σ µs, or null where a call has no flop count. */
  gflops: number | null;
  /** Σ bytes / Σ µs, or null where a call has no byte count. */
  gbps: number | null;
}

/**
 * The median µs of each dispatch over repeated profiled runs of the same plan (every run lists
 * the same dispatches in the same order; a run that does not is a bug in the caller).
 */
export function medianRuns(runs: readonly (readonly DispatchSample[])[]): DispatchSample[] {
  if (runs.length === 0) return [];
  const first = runs[0];
  for (const r of runs) {
    if (r.length !== first.length || r.some((d, i) => d.kernel !== first[i].kernel)) {
      throw new Error('medianRuns: the runs did not profile the same dispatches');
    }
  }
  return first.map((d, i) => ({ ...d, us: median(runs.map((r) => r[i].us)) }));
}

export function totalUs(samples: readonly DispatchSample[]): number {
  return samples.reduce((s, d) => s + d.us, 0);
}

/** Σ of a per-call figure, or null when a call lacks it. */
function sumOrNull(xs: readonly (number | null)[]): number | null {
  let s = 0;
  for (const x of xs) {
    if (x === null) return null;
    s += x;
  }
  return s;
}

/**
 * Groups dispatches by `key` (default: the kernel), slowest group first. Shares are of the
 * total µs of all `samples`, so the rows' µs and shares add up to the total and to 1.
 */
export function groupProfile(
  samples: readonly DispatchSample[],
  key: (d: DispatchSample) => string = (d) => d.kernel,
): KernelRow[] {
  const total = totalUs(samples);
  const groups = new Map<string, DispatchSample[]>();
  for (const d of samples) {
    const k = key(d);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = []));
    g.push(d);
  }
  const rows: KernelRow[] = [];
  for (const [name, g] of groups) {
    const us = totalUs(g);
    const flops = sumOrNull(g.map((d) => d.flops));
    const bytes = sumOrNull(g.map((d) => d.bytes));
    rows.push({
      name,
      calls: g.length,
      us,
      share: total > 0 ? us / total : 0,
      // flops per µs = MFLOP/s; bytes per µs = MB/s
      gflops: flops !== null && us > 0 ? flops / us / 1e3 : null,
      gbps: bytes !== null && us > 0 ? bytes / us / 1e3 : null,
    });
  }
  return rows.sort((a, b) => b.us - a.us || a.name.localeCompare(b.name));
}

/** Groups the matmul dispatches by kernel and shape (the other kernels have one shape per call site anyway). */
export function matmulShapes(samples: readonly DispatchSample[]): KernelRow[] {
  const total = totalUs(samples);
  return (
    groupProfile(
      samples.filter((d) => d.kernel.startsWith('matmul')),
      (d) => `${d.kernel} ${d.shape}`,
    )
      // shares of the whole profile, not of the matmuls alone
      .map((r) => ({ ...r, share: total > 0 ? r.us / total : 0 }))
  );
}

const HEADERS = ['kernel', 'calls', 'µs', 'share', 'GFLOP/s', 'GB/s'];

function rowCells(r: KernelRow): Cell[] {
  return [
    r.name,
    r.calls,
    sig3(r.us),
    `${(100 * r.share).toFixed(1)}%`,
    r.gflops === null ? null : sig3(r.gflops),
    r.gbps === null ? null : sig3(r.gbps),
  ];
}

/** A plain-text table of the rows and a total line ("–" where a kernel has no figure). */
export function profileTable(rows: readonly KernelRow[]): string {
  const calls = rows.reduce((s, r) => s + r.calls, 0);
  const us = rows.reduce((s, r) => s + r.us, 0);
  const share = rows.reduce((s, r) => s + r.share, 0);
  return formatTable(HEADERS, [
    ...rows.map(rowCells),
    ['total', calls, sig3(us), `${(100 * share).toFixed(1)}%`, null, null],
  ]);
}

/** The same as Markdown (docs/benchmarks.md). */
export function profileMarkdown(rows: readonly KernelRow[]): string {
  return markdownTable(HEADERS, rows.map(rowCells));
}

/**
 * One Markdown table for several profiles (e.g. the three model sizes): a row per kernel, a
 * column per profile with its share and µs; kernels ordered by their share in the last column.
 */
export function sharesMarkdown(columns: readonly { name: string; rows: readonly KernelRow[] }[]): string {
  const last = columns.at(-1)?.rows ?? [];
  const names = [...last.map((r) => r.name)];
  for (const c of columns) for (const r of c.rows) if (!names.includes(r.name)) names.push(r.name);
  const cell = (rows: readonly KernelRow[], name: string): Cell => {
    const r = rows.find((x) => x.name === name);
    return r ? `${(100 * r.share).toFixed(1)}% (${sig3(r.us)})` : null;
  };
  const totals = columns.map((c) => `${sig3(c.rows.reduce((s, r) => s + r.us, 0))} µs`);
  return markdownTable(
    ['kernel', ...columns.map((c) => `${c.name}: share (µs)`)],
    [...names.map((n) => [n, ...columns.map((c) => cell(c.rows, n))]), ['total', ...totals]],
  );
}
