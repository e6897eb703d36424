// The two attention_forward kernels (docs/engine.md, "Device features"): a thread per query row
// (attention_forward.wgsl, the default) or a workgroup per query row (attention_forward_rows.wgsl),
// whose row max and Σ exp are workgroup reductions and so take the subgroups variant where the
// device has it. 'rows' is not the default: on SwiftShader it took 2.3–7.7× the time of a thread
// per row (docs/benchmarks.md, "Reductions"); it waits for a measurement on a real GPU.

import { grid, rowWorkgroup } from './op-plumbing';

export type AttentionLayout = 'threads' | 'rows';
export const ATTENTION_LAYOUTS: readonly AttentionLayout[] = ['threads', 'rows'];

/** Kernel, overrides and workgroups of attention_forward for `rows` query rows of T keys in `layout`. */
export function attentionForwardShape(
  layout: AttentionLayout,
  rows: number,
  T: number,
  wg: number,
): { kernel: string; overrides: Record<string, number>; workgroups: [number, number, number] } {
  if (!ATTENTION_LAYOUTS.includes(layout))
    throw new RangeError(`attentionForward: layout must be one of ${ATTENTION_LAYOUTS.join(', ')}, got "${layout}"`);
  if (layout === 'threads') return { kernel: 'attention_forward', overrides: {}, workgroups: grid(rows, wg) };
  return { kernel: 'attention_forward_rows', overrides: { WG: rowWorkgroup(T) }, workgroups: grid(rows, 1) };
}
