// Counter-based random numbers, bit-identical to src/core/random.ts.
//
// A library file (no entry point): kernels pull it in with `//#include "random.wgsl"`.
// A value is a pure function of its key (seed, a, b, c), so any thread can draw the number
// of (seed, step, sequence, position) without state and the CPU can replay it. The mixer is
// the "lowbias32" integer hash; u32 arithmetic wraps, as Math.imul and >>> 0 do in TS.

// lowbias32: a bijective u32 -> u32 hash with low bias.
fn hash_u32(x_in: u32) -> u32 {
  var x = x_in;
  x ^= x >> 16u;
  x *= 0x7feb352du;
  x ^= x >> 15u;
  x *= 0x846ca68bu;
  x ^= x >> 16u;
  return x;
}

// Hash of a four-word key: the seed (offset by the golden ratio, so seed 0 is not a fixed
// point) chained with a, b, c.
fn hash4(seed: u32, a: u32, b: u32, c: u32) -> u32 {
  var h = hash_u32(seed ^ 0x9e3779b9u);
  h = hash_u32(h ^ a);
  h = hash_u32(h ^ b);
  h = hash_u32(h ^ c);
  return h;
}

// Uniform in [0, 1) from the top 24 bits: exact in f32, so TS gets the same float.
fn uniform4(seed: u32, a: u32, b: u32, c: u32) -> f32 {
  return f32(hash4(seed, a, b, c) >> 8u) * (1.0 / 16777216.0);
}
