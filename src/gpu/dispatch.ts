// A prepared kernel call: pipeline + bind group + workgroup count, built once and encoded
// many times. Plans (forward, backward, sampling) are lists of these, so a training step
// allocates nothing and creates no pipeline.

import { getPipeline, type Overrides } from './pipelines';
import { uniformFrom } from './buffers';
import type { KernelWork } from './kernel-work';

export type UniformValues = ReadonlyArray<readonly [number, 'u32' | 'i32' | 'f32']>;

export interface Dispatch {
  /** The kernel, e.g. "matmul.tuned" (file.entryPoint where not main): what a profile groups by. */
  label: string;
  pipeline: GPUComputePipeline;
  bindGroup: GPUBindGroup;
  workgroups: readonly [number, number, number];
  /** Shape, flops and bytes of the call, for profiles (./kernel-work.ts); absent on ad-hoc dispatches. */
  work?: KernelWork;
}

export interface DispatchSpec {
  kernel: string;
  /** Storage buffers in binding order 0, 1, 2, … */
  buffers: GPUBuffer[];
  /** Scalar parameters, bound as a uniform buffer after the storage buffers. */
  uniforms?: UniformValues;
  /** A uniform buffer already made (shared by several dispatches), instead of `uniforms`. */
  uniformBuffer?: GPUBuffer;
  overrides?: Overrides;
  workgroups: number | readonly [number, number?, number?];
  entryPoint?: string;
  label?: string;
}

export function makeDispatch(device: GPUDevice, spec: DispatchSpec): Dispatch {
  const pipeline = getPipeline(device, spec.kernel, spec.overrides, spec.entryPoint);
  const entries: GPUBindGroupEntry[] = spec.buffers.map((buffer, binding) => ({ binding, resource: { buffer } }));
  const ubuf = spec.uniformBuffer ?? (spec.uniforms ? uniformFrom(device, spec.uniforms, `${spec.kernel} params`) : undefined);
  if (ubuf) entries.push({ binding: spec.buffers.length, resource: { buffer: ubuf } });
  const bindGroup = device.createBindGroup({ label: spec.label ?? spec.kernel, layout: pipeline.getBindGroupLayout(0), entries });
  const w = typeof spec.workgroups === 'number' ? [spec.workgroups] : spec.workgroups;
  return { label: spec.label ?? spec.kernel, pipeline, bindGroup, workgroups: [w[0] ?? 1, w[1] ?? 1, w[2] ?? 1] };
}

/** Encode dispatches in order into one compute pass. */
export function encodeDispatches(encoder: GPUCommandEncoder, dispatches: readonly Dispatch[], label?: string): void {
  const pass = encoder.beginComputePass({ label });
  for (const d of dispatches) {
    pass.setPipeline(d.pipeline);
    pass.setBindGroup(0, d.bindGroup);
    pass.dispatchWorkgroups(d.workgroups[0], d.workgroups[1], d.workgroups[2]);
  }
  pass.end();
}

/** Submit dispatches as one command buffer and wait for the GPU to finish. */
export async function runDispatches(device: GPUDevice, dispatches: readonly Dispatch[]): Promise<void> {
  const enc = device.createCommandEncoder();
  encodeDispatches(enc, dispatches);
  device.queue.submit([enc.finish()]);
  await device.queue.onSubmittedWorkDone();
}
