// What the kernels suite's measurements of one model share (./kernels-measure.ts, ./kernels-profile.ts):
// its own module, so that those two and the results' types (./kernels-results.ts) import no cycle.

import type { GpuContext } from '../gpu/device';
import type { ParamLayout } from '../model/layout';
import type { GpuTimer } from './gpu-timer';
import type { BenchOptions } from './suite';

/** What a measurement of one model at one batch shape needs (the suite's run, with the model's layout). */
export interface ModelBench {
  gpu: GpuContext;
  timer: GpuTimer | null;
  layout: ParamLayout;
  /** Sequences of the batch. */
  N: number;
  /** Positions of each sequence. */
  T: number;
  opts: BenchOptions;
}
