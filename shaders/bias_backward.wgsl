// bias_backward: dbias[j] += Σ_r dout[r,j]  (column sums, +=)
// One thread per column, rows summed in order (deterministic).
// CPU twin: biasBackward in src/reference/ops.ts.

override WG: u32 = 64;

struct Params { R: u32, OC: u32 }

@group(0) @binding(0) var<storage, read_write> dbias: array<f32>; // [OC]
@group(0) @binding(1) var<storage, read> dout: array<f32>;        // [R, OC]
@group(0) @binding(2) var<uniform> p: Params;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let j = gid.x;
  if (j >= p.OC) { return; }
  var s = 0.0;
  for (var r = 0u; r < p.R; r++) { s += dout[r * p.OC + j]; }
  dbias[j] += s;
}
