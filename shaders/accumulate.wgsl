// accumulate: dst += src, elementwise (the residual connection's backward: the gradient
// flows to both branches unchanged). CPU twin: accumulate in src/reference/ops.ts.

override WG: u32 = 64;

struct Params { n: u32 }

@group(0) @binding(0) var<storage, read_write> dst: array<f32>; // [n]
@group(0) @binding(1) var<storage, read> src: array<f32>;       // [n]
@group(0) @binding(2) var<uniform> p: Params;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WG;
  if (i >= p.n) { return; }
  dst[i] += src[i];
}
