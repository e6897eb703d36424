// Counts a device's GPU buffers: created, destroyed, and the bytes of those not destroyed. The
// soak benchmark watches it for leaks over thousands of steps, and a test holds the run's
// footprint estimate (src/rl/gpu-fit.ts) to what the engine really allocates.
//
// A buffer dropped without destroy() counts as live: its JS object may be collected while a
// bind group still holds the GPU memory, so collection says nothing about the memory.

export interface BufferCensus {
  /** Buffers created and not destroyed. */
  live: number;
  liveBytes: number;
  created: number;
  destroyed: number;
  /** The largest liveBytes seen. */
  peakBytes: number;
}

export interface BufferWatch {
  census(): BufferCensus;
  /** Live buffers by label, largest first (for finding what grows). */
  byLabel(): { label: string; count: number; bytes: number }[];
  /** Sizes of the live buffers of at least `minBytes`, ascending. */
  sizes(minBytes?: number): number[];
  /** Puts device.createBuffer back. */
  stop(): void;
}

/** Wraps device.createBuffer (and each buffer's destroy) to keep the census. */
export function watchBuffers(device: GPUDevice): BufferWatch {
  const original = device.createBuffer;
  const live = new Map<number, { size: number; label: string }>();
  let nextId = 0;
  let created = 0,
    destroyed = 0,
    liveBytes = 0,
    peakBytes = 0;
  const forget = (id: number): boolean => {
    const entry = live.get(id);
    if (!entry) return false;
    live.delete(id);
    liveBytes -= entry.size;
    return true;
  };
  device.createBuffer = function (this: GPUDevice, descriptor: GPUBufferDescriptor): GPUBuffer {
    const buffer = original.call(this, descriptor);
    const id = nextId++;
    const size = Number(descriptor.size);
    live.set(id, { size, label: descriptor.label ?? '' });
    created++;
    liveBytes += size;
    peakBytes = Math.max(peakBytes, liveBytes);
    const destroy = buffer.destroy;
    buffer.destroy = function (this: GPUBuffer): undefined {
      if (forget(id)) destroyed++;
      return destroy.call(this);
    };
    return buffer;
  };
  return {
    census: () => ({ live: live.size, liveBytes, created, destroyed, peakBytes }),
    byLabel() {
      const groups = new Map<string, { label: string; count: number; bytes: number }>();
      for (const { size, label } of live.values()) {
        const key = label.replace(/\d+/g, '#');
        const g = groups.get(key) ?? { label: key, count: 0, bytes: 0 };
        g.count++;
        g.bytes += size;
        groups.set(key, g);
      }
      return [...groups.values()].sort((a, b) => b.bytes - a.bytes);
    },
    sizes(minBytes = 0) {
      return [...live.values()]
        .map((b) => b.size)
        .filter((n) => n >= minBytes)
        .sort((a, b) => a - b);
    },
    stop() {
      device.createBuffer = original;
    },
  };
}
