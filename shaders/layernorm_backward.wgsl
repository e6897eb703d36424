// layernorm_backward, using the mean/rstd saved by layernorm_forward.  (+=) into dinp, dw, db.
// With x̂ = (x − mean)·rstd and g = dout·w:
//   dinp = rstd·(g − mean_c(g) − x̂·mean_c(g·x̂)),  dw = Σ_r dout·x̂,  db = Σ_r dout.
// Three dispatches, no atomics (the same input gives the same bits):
//   main            a thread per row of dinp;
//   params_partial  thread (c, z) sums dout·x̂ and dout over the rows of chunk z (ROWS rows, a
//                   constant, so the order depends only on R) into part[z] — a column walked
//                   by one thread over all R = N·T rows would be a chain of R dependent loads;
//   params_finish   thread c adds the chunk sums in order into dw[c] and db[c].
// CPU twin: layernormBackward in src/reference/ops.ts (rows in order; equal up to rounding).

override WG: u32 = 64;
override ROWS: u32 = 64; // rows per chunk of the dw/db sums

struct Params { R: u32, C: u32, Z: u32 } // Z = ⌈R / ROWS⌉ chunks

@group(0) @binding(0) var<storage, read_write> dinp: array<f32>; // [R, C]
@group(0) @binding(1) var<storage, read_write> dw: array<f32>;   // [C]
@group(0) @binding(2) var<storage, read_write> db: array<f32>;   // [C]
@group(0) @binding(3) var<storage, read> dout: array<f32>;       // [R, C]
@group(0) @binding(4) var<storage, read> inp: array<f32>;        // [R, C]
@group(0) @binding(5) var<storage, read> w: array<f32>;          // [C]
@group(0) @binding(6) var<storage, read> mean: array<f32>;       // [R]
@group(0) @binding(7) var<storage, read> rstd: array<f32>;       // [R]
@group(0) @binding(8) var<storage, read_write> part: array<f32>;  // [Z, 2, C] scratch: Σ dout·x̂, Σ dout
@group(0) @binding(9) var<uniform> p: Params;

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
  }
}

@compute @workgroup_size(WG)
fn params_partial(@builtin(global_invocation_id) gid: vec3u) {
  let c = gid.x;
  let z = gid.y;
  let C = p.C;
  if (c >= C || z >= p.Z) { return; }
  let end = min(p.R, (z + 1u) * ROWS);
  var aw = 0.0;
  var ab = 0.0;
  for (var r = z * ROWS; r < end; r++) {
    let d = dout[r * C + c];
    aw += d * (inp[r * C + c] - mean[r]) * rstd[r];
    ab += d;
  }
  part[(2u * z) * C + c] = aw;
  part[(2u * z + 1u) * C + c] = ab;
}

@compute @workgroup_size(WG)
fn params_finish(@builtin(global_invocation_id) gid: vec3u) {
  let c = gid.x;
  let C = p.C;
  if (c >= C) { return; }
  var aw = 0.0;
  var ab = 0.0;
  for (var z = 0u; z < p.Z; z++) {
    aw += part[(2u * z) * C + c];
    ab += part[(2u * z + 1u) * C + c];
  }
  dw[c] += aw;
  db[c] += ab;
}
