// Counter-based random numbers, bit-identical to shaders/random.wgsl. In core because every
// layer draws from it: tasks (prompts), model init, the CPU twin of sample_token, shuffles.
//
// A value is a pure function of its key (seed, a, b, c): no state to carry, so the GPU can
// draw the random number of (seed, step, sequence, position) in any thread and the CPU can
// replay it. The mixer is the "lowbias32" integer hash (Chris Wellons' hash-prospector
// constants), chained over the key words; all arithmetic is u32 with wrap-around, which
// Math.imul and >>> 0 reproduce exactly in JavaScript.

/** lowbias32: a bijective u32 → u32 hash with low bias. */
export function hashU32(x: number): number {
  x = x >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  x ^= x >>> 16;
  return x >>> 0;
}

/** Hash of a four-word key; the same chain as `hash4` in random.wgsl. */
export function hash4(seed: number, a: number, b: number, c: number): number {
  let h = hashU32((seed >>> 0) ^ 0x9e3779b9);
  h = hashU32((h ^ (a >>> 0)) >>> 0);
  h = hashU32((h ^ (b >>> 0)) >>> 0);
  h = hashU32((h ^ (c >>> 0)) >>> 0);
  return h;
}

/** Uniform in [0, 1) with 24 bits, exactly representable in f32 (as in WGSL). */
export function uniform4(seed: number, a: number, b: number, c: number): number {
  return (hash4(seed, a, b, c) >>> 8) * (1 / 16777216);
}

/** A sequential stream for CPU-side randomness (task sampling, init, shuffles). */
export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n), n ≥ 1. */
  int(n: number): number;
  /** Standard normal (Box–Muller). */
  normal(): number;
  /** Draws made so far: makeRng(seed, stream, position) continues the stream from here (a resumed run). */
  position(): number;
}

/**
 * A stream keyed by (seed, stream id): draw k is uniform4(seed, stream, k >> 32-ish, k).
 * Different stream ids give independent streams from one user seed (e.g. init vs tasks).
 */
export function makeRng(seed: number, stream = 0, start = 0): Rng {
  if (!Number.isSafeInteger(start) || start < 0)
    throw new RangeError(`makeRng: start must be a non-negative integer, got ${start}`);
  let counter = start;
  const next = (): number => {
    const hi = Math.floor(counter / 4294967296);
    const v = uniform4(seed, stream, hi, counter >>> 0);
    counter++;
    return v;
  };
  return {
    next,
    int(n: number): number {
      if (!(n >= 1)) throw new RangeError(`Rng.int: n must be ≥ 1, got ${n}`);
      return Math.min(n - 1, Math.floor(next() * n));
    },
    normal(): number {
      // 1 - u keeps the log argument in (0, 1].
      const u1 = 1 - next();
      const u2 = next();
      return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    },
    position: () => counter,
  };
}

/** Stream ids, so that one seed drives every part of a run without overlap. */
export const STREAM = {
  init: 1,
  tasks: 2,
  heldOut: 3,
  minibatch: 4,
  statistics: 5,
  curriculum: 6,
  preview: 7,
} as const;
