// What a piece of work asked of a GPU device, as src/gpu/call-counter.ts counts it. A plain
// record here, so that the trainer and the CPU engine can name it without loading WebGPU code.

export interface GpuCallCounts {
  /** dispatchWorkgroups calls. */
  dispatches: number;
  /** beginComputePass calls. */
  computePasses: number;
  /** queue.submit calls (each may carry several command buffers). */
  submits: number;
  /** Command buffers in those submits. */
  commandBuffers: number;
  /** mapAsync calls: each is a wait for the GPU and a copy back to the CPU. */
  readbacks: number;
  /** queue.writeBuffer calls. */
  writes: number;
  /** Bytes those calls wrote from the CPU. */
  bytesWritten: number;
}
