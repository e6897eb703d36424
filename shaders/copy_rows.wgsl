// copy_rows (KV-cache decoding): dst[n,pos,:] = src[n,:]   (=), pos = cursor[0]
// Writes the new position's q|k|v (W = 3C) into the cache; other rows are untouched.
// One thread per element. CPU twin: copyRows in src/reference/decode.ts.

override WG: u32 = 64;

struct Params { N: u32, Tmax: u32, W: u32 }

@group(0) @binding(0) var<storage, read_write> dst: array<f32>; // [N, Tmax, W]
@group(0) @binding(1) var<storage, read> src: array<f32>;       // [N, W]
@group(0) @binding(2) var<storage, read> cursor: array<u32>;    // [≥1] cursor[0] = pos
@group(0) @binding(3) var<uniform> p: Params;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WG;
  let pos = cursor[0];
  if (i >= p.N * p.W || pos >= p.Tmax) { return; }
  let n = i / p.W;
  let w = i % p.W;
  dst[(n * p.Tmax + pos) * p.W + w] = src[i];
}
