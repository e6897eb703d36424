// A plan is a list of steps recorded into one command encoder: kernel dispatches (grouped
// into compute passes), buffer clears and copies. Plans are built once per config, so
// encoding one allocates nothing and creates no pipeline (docs/architecture.md, "Conventions").

import type { Dispatch } from '../gpu/dispatch';

export type PlanStep =
  | { kind: 'dispatch'; d: Dispatch }
  | { kind: 'clear'; buffer: GPUBuffer; offset?: number; size?: number }
  | { kind: 'copy'; src: GPUBuffer; srcOffset: number; dst: GPUBuffer; dstOffset: number; size: number };

export class Plan {
  readonly steps: PlanStep[] = [];

  dispatch(ds: Dispatch[]): this {
    for (const d of ds) this.steps.push({ kind: 'dispatch', d });
    return this;
  }

  clear(buffer: GPUBuffer, offset?: number, size?: number): this {
    this.steps.push({ kind: 'clear', buffer, offset, size });
    return this;
  }

  copy(src: GPUBuffer, srcOffset: number, dst: GPUBuffer, dstOffset: number, size: number): this {
    this.steps.push({ kind: 'copy', src, srcOffset, dst, dstOffset, size });
    return this;
  }

  append(other: Plan): this {
    this.steps.push(...other.steps);
    return this;
  }

  /** Number of kernel dispatches (for benchmarks and tests). */
  get dispatchCount(): number {
    return this.steps.filter((s) => s.kind === 'dispatch').length;
  }

  /** Record into `encoder`; consecutive dispatches share one compute pass. */
  encode(encoder: GPUCommandEncoder, label?: string): void {
    let pass: GPUComputePassEncoder | null = null;
    const endPass = () => {
      pass?.end();
      pass = null;
    };
    for (const s of this.steps) {
      if (s.kind === 'dispatch') {
        pass ??= encoder.beginComputePass({ label });
        pass.setPipeline(s.d.pipeline);
        pass.setBindGroup(0, s.d.bindGroup);
        pass.dispatchWorkgroups(s.d.workgroups[0], s.d.workgroups[1], s.d.workgroups[2]);
      } else {
        endPass();
        if (s.kind === 'clear') encoder.clearBuffer(s.buffer, s.offset, s.size);
        else encoder.copyBufferToBuffer(s.src, s.srcOffset, s.dst, s.dstOffset, s.size);
      }
    }
    endPass();
  }
}

/** Encode plans in order as one submission and wait for the GPU. */
export async function runPlans(device: GPUDevice, ...plans: Plan[]): Promise<void> {
  const enc = device.createCommandEncoder();
  for (const p of plans) p.encode(enc);
  device.queue.submit([enc.finish()]);
  await device.queue.onSubmittedWorkDone();
}
