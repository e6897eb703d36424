// The call counter counts exactly what was asked of the device, and nothing on other devices.
import { describe, expect, it } from 'vitest';
import { gpuIt } from './testing';
import { countGpuCalls, countsBetween, writeBytes, ZERO_COUNTS } from './call-counter';
import { createStorage, readF32, writeArray } from './buffers';
import { addOp } from './ops';
import { Plan } from '../model/gpu-plan';

describe('writeBytes', () => {
  it('counts elements for typed arrays and bytes for ArrayBuffers', () => {
    expect(writeBytes(new Float32Array(10))).toBe(40);
    expect(writeBytes(new Float32Array(10), 2)).toBe(32);
    expect(writeBytes(new Float32Array(10), 2, 3)).toBe(12);
    expect(writeBytes(new ArrayBuffer(10), 2)).toBe(8);
    expect(writeBytes(new ArrayBuffer(10), 2, 4)).toBe(4);
  });

  it('countsBetween subtracts field by field', () => {
    const a = { ...ZERO_COUNTS, dispatches: 3, bytesWritten: 8 };
    const b = { ...ZERO_COUNTS, dispatches: 10, bytesWritten: 20, submits: 1 };
    expect(countsBetween(a, b)).toEqual({ ...ZERO_COUNTS, dispatches: 7, bytesWritten: 12, submits: 1 });
  });
});

describe('countGpuCalls', () => {
  gpuIt('counts dispatches, passes, submits, readbacks and bytes written', async ({ device }) => {
    const counter = countGpuCalls(device);
    expect(countGpuCalls(device)).toBe(counter); // installed once per device
    const n = 100;
    const a = createStorage(device, n * 4),
      b = createStorage(device, n * 4),
      out = createStorage(device, n * 4);
    // Two adds, a clear between them: two passes in one command buffer.
    const plan = new Plan()
      .dispatch(addOp(device, out, a, b, n))
      .clear(a)
      .dispatch(addOp(device, b, out, out, n));
    const { result, counts } = await counter.measure(async () => {
      writeArray(device, a, new Float32Array(n).fill(1)); // 400 bytes
      device.queue.writeBuffer(b, 8, new Float32Array(n).fill(2), 2, 10); // 10 elements = 40 bytes
      const enc = device.createCommandEncoder();
      plan.encode(enc);
      device.queue.submit([enc.finish()]);
      return readF32(device, b, n); // one more submit (the copy) and one mapAsync
    });
    expect(result[50]).toBe(2); // (1 + 0)·2: the second add saw the first one's output
    expect(result[5]).toBe(6); // (1 + 2)·2 where the partial write put 2s (elements 2–11)
    expect(counts).toEqual({
      dispatches: 2,
      computePasses: 2,
      submits: 2,
      commandBuffers: 2,
      readbacks: 1,
      writes: 2,
      bytesWritten: 440,
    });
    const total = counter.counts().writes; // the two above and the add uniforms' uploads
    counter.stop();
    // After stop nothing counts and a new counter starts at zero.
    const again = countGpuCalls(device);
    writeArray(device, a, new Float32Array(4));
    expect(again.counts().writes).toBe(1);
    expect(counter.counts().writes).toBe(total);
    again.stop();
  });
});
