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

/** A tensor on the GPU: a whole buffer or a slice of one. */
export type Buf = GPUBuffer | GPUBufferBinding;

export interface DispatchSpec {
  kernel: string;
  entryPoint?: string;
  /** Storage buffers by binding number 0, 1, 2, …; null where this entry point does not use the binding. */
  bindings: ReadonlyArray<Buf | null>;
  /** The uniform, bound right after the storage bindings: a buffer already made (shared), or its values. */
  uniform?: GPUBuffer | UniformValues;
  overrides?: Overrides;
  workgroups: number | readonly [number, number?, number?];
  /** Default: the kernel, or kernel.entryPoint (what a profile groups by). */
  label?: string;
  /** Shape, flops and bytes of the call (./kernel-work.ts), for profiles. */
  work?: KernelWork;
}

/** Whether `b` is a slice ({buffer, offset, size}) rather than a whole buffer. */
export function isBinding(b: Buf): b is GPUBufferBinding {
  return (b as GPUBufferBinding).buffer !== undefined;
}

/** The one dispatch builder: every kernel call of src/gpu/ops.ts and the ad-hoc ones (self-check, tests). */
export function makeDispatch(device: GPUDevice, spec: DispatchSpec): Dispatch {
  const pipeline = getPipeline(device, spec.kernel, spec.overrides, spec.entryPoint);
  const entries: GPUBindGroupEntry[] = [];
  spec.bindings.forEach((b, binding) => {
    if (b) entries.push({ binding, resource: isBinding(b) ? b : { buffer: b } });
  });
  const label = spec.label ?? (spec.entryPoint ? `${spec.kernel}.${spec.entryPoint}` : spec.kernel);
  if (spec.uniform) {
    const buffer = Array.isArray(spec.uniform)
      ? uniformFrom(device, spec.uniform as UniformValues, `${spec.kernel} params`)
      : (spec.uniform as GPUBuffer);
    entries.push({ binding: spec.bindings.length, resource: { buffer } });
  }
  const bindGroup = device.createBindGroup({ label, layout: pipeline.getBindGroupLayout(0), entries });
  const w = typeof spec.workgroups === 'number' ? [spec.workgroups] : spec.workgroups;
  return { label, pipeline, bindGroup, workgroups: [w[0] ?? 1, w[1] ?? 1, w[2] ?? 1], work: spec.work };
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
