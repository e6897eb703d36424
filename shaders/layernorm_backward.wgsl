// layernorm_backward, using the mean/rstd saved by layernorm_forward.  (+=) into dinp, dw, db.
// With x̂ = (x − mean)·rstd and g = dout·w:
//   dinp = rstd·(g − mean_c(g) − x̂·mean_c(g·x̂)),  dw = Σ_r dout·x̂,  db = Σ_r dout.
// One dispatch, two kinds of thread: threads 0..R-1 own a row of dinp; threads R..R+C-1 own
// a column of dw/db and sum the rows in order (deterministic, no atomics).
// CPU twin: layernormBackward in src/reference/ops.ts.

override WG: u32 = 64;

struct Params { R: u32, C: u32 }

@group(0) @binding(0) var<storage, read_write> dinp: array<f32>; // [R, C]
@group(0) @binding(1) var<storage, read_write> dw: array<f32>;   // [C]
@group(0) @binding(2) var<storage, read_write> db: array<f32>;   // [C]
@group(0) @binding(3) var<storage, read> dout: array<f32>;       // [R, C]
@group(0) @binding(4) var<storage, read> inp: array<f32>;        // [R, C]
@group(0) @binding(5) var<storage, read> w: array<f32>;          // [C]
@group(0) @binding(6) var<storage, read> mean: array<f32>;       // [R]
@group(0) @binding(7) var<storage, read> rstd: array<f32>;       // [R]
@group(0) @binding(8) var<uniform> p: Params;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WG;
  let R = p.R;
  let C = p.C;
  if (i < R) {
    let x = i * C;
    let m = mean[i];
    let s = rstd[i];
    var gMean = 0.0;
    var gxMean = 0.0;
    for (var c = 0u; c < C; c++) {
      let g = dout[x + c] * w[c];
      gMean += g;
      gxMean += g * (inp[x + c] - m) * s;
    }
    gMean /= f32(C);
    gxMean /= f32(C);
    for (var c = 0u; c < C; c++) {
      let xhat = (inp[x + c] - m) * s;
      dinp[x + c] += s * (dout[x + c] * w[c] - gMean - xhat * gxMean);
    }
    return;
  }
  let c = i - R;
  if (c >= C) { return; }
  var aw = dw[c];
  var ab = db[c];
  for (var r = 0u; r < R; r++) {
    let d = dout[r * C + c];
    aw += d * (inp[r * C + c] - mean[r]) * rstd[r];
    ab += d;
  }
  dw[c] = aw;
  db[c] = ab;
}
