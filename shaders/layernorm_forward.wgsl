// layernorm_forward: out = (inp − mean)·rstd·w + b per row; population variance, eps 1e-5.
// (=) into out and stats (mean and rstd of each row, packed in one binding as layernorm_backward
// and matmul's layernorm prologue read them). One thread per row (C is small: loops beat a
// shared-memory reduction here). CPU twin: layernormForward in src/reference/ops.ts.

override WG: u32 = 64;

struct Params { R: u32, C: u32 }

@group(0) @binding(0) var<storage, read_write> out: array<f32>;  // [R, C]
@group(0) @binding(1) var<storage, read_write> stats: array<f32>; // [2, R] mean, then rstd
@group(0) @binding(2) var<storage, read> inp: array<f32>;        // [R, C]
@group(0) @binding(3) var<storage, read> w: array<f32>;          // [C]
@group(0) @binding(4) var<storage, read> b: array<f32>;          // [C]
@group(0) @binding(5) var<uniform> p: Params;

const EPS: f32 = 1e-5;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let r = gid.x + gid.y * nwg.x * WG;
  if (r >= p.R) { return; }
  let C = p.C;
  let x = r * C;
  var m = 0.0;
  for (var c = 0u; c < C; c++) { m += inp[x + c]; }
  m /= f32(C);
  // two passes (not E[x²] − m²): no cancellation when |mean| ≫ std
  var v = 0.0;
  for (var c = 0u; c < C; c++) {
    let d = inp[x + c] - m;
    v += d * d;
  }
  v /= f32(C);
  let s = 1.0 / sqrt(v + EPS);
  for (var c = 0u; c < C; c++) {
    out[x + c] = (inp[x + c] - m) * s * w[c] + b[c];
  }
  stats[r] = m;
  stats[p.R + r] = s;
}
