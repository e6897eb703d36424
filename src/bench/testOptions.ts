// Test helper: the BenchOptions of a quick suite run, whose report lines and progress notes
// collect in arrays the test reads afterwards.

import type { ParsedFlags } from '../core/flags';
import type { BenchOptions } from './suite';

export interface QuickBench {
  opts: BenchOptions;
  /** The report's lines (opts.out). */
  lines: string[];
  /** The progress notes (opts.progress). */
  progress: string[];
}

/** A quick run (small batches) with these suite flags: one timed repetition and no warm-up unless told. */
export function quickBench(
  flags: ParsedFlags,
  timing: { reps: number; warmup: number } = { reps: 1, warmup: 0 },
): QuickBench {
  const lines: string[] = [];
  const progress: string[] = [];
  const opts: BenchOptions = {
    quick: true,
    ...timing,
    out: (l) => lines.push(l),
    progress: (l) => progress.push(l),
    flags,
  };
  return { opts, lines, progress };
}
