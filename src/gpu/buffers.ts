// Small buffer helpers: storage buffers from typed arrays, uniform records, and readback.

export type TypedArray = Float32Array | Int32Array | Uint32Array;

const STORAGE = () => GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

/** A storage buffer of `byteLength` bytes (rounded up to 4; WebGPU rejects size 0). */
export function createStorage(device: GPUDevice, byteLength: number, label?: string): GPUBuffer {
  return device.createBuffer({ label, size: Math.max(4, Math.ceil(byteLength / 4) * 4), usage: STORAGE() });
}

/** A storage buffer holding a copy of `data`. */
export function storageFrom(device: GPUDevice, data: TypedArray, label?: string): GPUBuffer {
  const buf = createStorage(device, data.byteLength, label);
  device.queue.writeBuffer(buf, 0, data.buffer, data.byteOffset, data.byteLength);
  return buf;
}

/**
 * A uniform buffer for a flat record of u32/i32/f32 fields, each 4 bytes, in the order given
 * (the WGSL struct must list the same fields in the same order, all scalar).
 */
export function uniformFrom(
  device: GPUDevice,
  values: ReadonlyArray<readonly [number, 'u32' | 'i32' | 'f32']>,
  label?: string,
): GPUBuffer {
  const n = Math.max(4, Math.ceil(values.length / 4) * 4); // 16-byte multiple
  const bytes = new ArrayBuffer(n * 4);
  writeRecord(new DataView(bytes), values);
  const buf = device.createBuffer({
    label,
    size: bytes.byteLength,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(buf, 0, bytes);
  return buf;
}

export function writeRecord(view: DataView, values: ReadonlyArray<readonly [number, 'u32' | 'i32' | 'f32']>): void {
  values.forEach(([v, kind], i) => {
    if (kind === 'f32') view.setFloat32(i * 4, v, true);
    else if (kind === 'i32') view.setInt32(i * 4, v, true);
    else view.setUint32(i * 4, v >>> 0, true);
  });
}

/** Copy a buffer (or its first `byteLength` bytes) back to the CPU. One submission, one map. */
export async function readBuffer(device: GPUDevice, src: GPUBuffer, byteLength = src.size): Promise<ArrayBuffer> {
  const staging = device.createBuffer({ size: byteLength, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  const enc = device.createCommandEncoder();
  enc.copyBufferToBuffer(src, 0, staging, 0, byteLength);
  device.queue.submit([enc.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const out = staging.getMappedRange().slice(0);
  staging.unmap();
  staging.destroy();
  return out;
}

export async function readF32(device: GPUDevice, src: GPUBuffer, count?: number): Promise<Float32Array> {
  return new Float32Array(await readBuffer(device, src, count === undefined ? src.size : count * 4));
}

export async function readI32(device: GPUDevice, src: GPUBuffer, count?: number): Promise<Int32Array> {
  return new Int32Array(await readBuffer(device, src, count === undefined ? src.size : count * 4));
}

/** Workgroup count for `n` threads at `size` per group, within the 65535 per-dimension limit. */
export function groups1d(n: number, size: number): number {
  const g = Math.ceil(n / size);
  if (g > 65535) throw new Error(`dispatch of ${n} threads needs ${g} workgroups (> 65535); use a 2-D dispatch`);
  return Math.max(1, g);
}

/** queue.writeBuffer for any typed array (also views of shared or larger buffers). */
export function writeArray(device: GPUDevice, dst: GPUBuffer, data: TypedArray, dstOffsetBytes = 0): void {
  device.queue.writeBuffer(dst, dstOffsetBytes, data.buffer as ArrayBuffer, data.byteOffset, data.byteLength);
}
