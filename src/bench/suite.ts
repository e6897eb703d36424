// What a benchmark suite is: a module in src/bench/ that `npm run bench -- <suite>` runs
// (src/cli/bench.ts keeps the table of suites). The entry opens the device, prints the
// adapter, parses the common flags (plus the suite's own), and writes the JSON; the suite
// measures, prints its tables through `out`, and returns plain data for the JSON.

import type { GpuContext } from '../gpu/device';
import type { FlagSpec, ParsedFlags } from '../core/flags';

export interface BenchOptions {
  /** Smaller batches, for software adapters (SwiftShader). */
  quick: boolean;
  /** Timed repetitions per measurement (medians are reported). */
  reps: number;
  /** Untimed runs before the timed ones (pipeline compilation, caches). */
  warmup: number;
  /** The suite's own flags, parsed (strings or booleans). */
  flags: ParsedFlags;
  /** A line of the report (tables, progress) on stdout. */
  out(line: string): void;
  /** A progress note on stderr (not part of the report). */
  progress(line: string): void;
}

export interface BenchSuite {
  name: string;
  /** One line for the usage text. */
  summary: string;
  /** Flags this suite accepts besides the common ones (--json, --quick, --reps, --warmup). */
  flags?: Record<string, FlagSpec>;
  /** false: the suite measures one run of something (a training run), not timed repetitions; --reps and --warmup do not apply. */
  repeated?: boolean;
  /** Default --reps when not given (5 if absent). */
  defaultReps?(quick: boolean): number;
  /** Runs the suite; the result goes into the JSON file under "result". */
  run(gpu: GpuContext, opts: BenchOptions): Promise<unknown>;
}

/** A date as a file-name part: 2025-01-31T12-34-56 (no colons: file names on every OS). */
export function fileTimestamp(d: Date): string {
  return d.toISOString().slice(0, 19).replace(/:/g, '-');
}
