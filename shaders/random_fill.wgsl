// random_fill: evaluates the random.wgsl functions for a batch of keys, so tests (and
// anyone curious) can compare them bit for bit with src/core/random.ts.
//   out[3i]   = hash_u32(keys[i])
//   out[3i+1] = hash4(seed, keys[i], a, b)
//   out[3i+2] = bits of uniform4(seed, a, keys[i], b)

//#include "random.wgsl"
//#include "elementwise.wgsl"

struct Params { n: u32, seed: u32, a: u32, b: u32 }

@group(0) @binding(0) var<storage, read_write> out: array<u32>; // [n, 3]
@group(0) @binding(1) var<storage, read> keys: array<u32>;      // [n]
@group(0) @binding(2) var<uniform> p: Params;

fn element(i: u32) {
  let k = keys[i];
  out[3u * i] = hash_u32(k);
  out[3u * i + 1u] = hash4(p.seed, k, p.a, p.b);
  out[3u * i + 2u] = bitcast<u32>(uniform4(p.seed, p.a, k, p.b));
}
