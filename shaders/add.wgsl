// add: out = a + b, elementwise (the residual connection's forward).
// Dispatched as a 2-D grid (src/gpu/ops.ts, grid), so n may pass 65535 workgroups × WG.
// CPU twin: add() in src/reference/ops.ts.

override WG: u32 = 64;

struct Params { n: u32 }

@group(0) @binding(0) var<storage, read_write> out: array<f32>; // [n]
@group(0) @binding(1) var<storage, read> a: array<f32>;          // [n]
@group(0) @binding(2) var<storage, read> b: array<f32>;          // [n]
@group(0) @binding(3) var<uniform> p: Params;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WG;
  if (i >= p.n) { return; }
  out[i] = a[i] + b[i];
}
