// layernorm_backward, using the mean/rstd saved by the forward (layernorm_forward, or matmul's
// layernorm prologue).  (+=) into dinp, dw, db.
// With x̂ = (x − mean)·rstd and g = dout·w:
//   dinp = rstd·(g − mean_c(g) − x̂·mean_c(g·x̂)),  dw = Σ_r dout·x̂,  db = Σ_r dout.
// One dispatch, two kinds of workgroup (no atomics: the same input gives the same bits):
//   the first CG = ⌈C / CW⌉ take CW columns of dw and db each: thread (x, y) sums chunks
//     y, y + ZL, … of ROWS rows (a constant, so the order depends only on R) of its column in
//     row order, a round of ZL chunks at a time, and thread (x, 0) adds each round's chunk sums
//     in chunk order (a column walked by one thread over all R = N·T rows would be a chain of
//     R dependent loads);
//   the rest take CW·ZL rows of dinp each, a thread per row.
// CPU twin: layernormBackward in src/reference/ops.ts (rows in order; equal up to rounding).

override CW: u32 = 8; // columns of a dw/db workgroup
override ZL: u32 = 8; // chunks summed at once per column
override ROWS: u32 = 64; // rows per chunk of the dw/db sums

struct Params { R: u32, C: u32, Z: u32, CG: u32 } // Z = ⌈R / ROWS⌉ chunks, CG column workgroups

@group(0) @binding(0) var<storage, read_write> dinp: array<f32>; // [R, C]
@group(0) @binding(1) var<storage, read_write> dw: array<f32>;   // [C]
@group(0) @binding(2) var<storage, read_write> db: array<f32>;   // [C]
@group(0) @binding(3) var<storage, read> dout: array<f32>;       // [R, C]
@group(0) @binding(4) var<storage, read> inp: array<f32>;        // [R, C]
@group(0) @binding(5) var<storage, read> w: array<f32>;          // [C]
@group(0) @binding(6) var<storage, read> stats: array<f32>;      // [2, R] mean, then rstd
@group(0) @binding(7) var<uniform> p: Params;

var<workgroup> part_w: array<f32, CW * ZL>; // [ZL, CW] chunk sums of dout·x̂ of a round
var<workgroup> part_b: array<f32, CW * ZL>; // [ZL, CW] chunk sums of dout

fn dinp_row(i: u32) {
  let C = p.C;
  let x = i * C;
  let m = stats[i];
  let s = stats[p.R + i];
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

fn params_columns(wx: u32, lid: vec3u) {
  let C = p.C;
  let c = wx * CW + lid.x;
  let cr = min(c, C - 1u); // an edge column past C reads its neighbour's and stores nothing
  var aw = 0.0;
  var ab = 0.0;
  for (var z0 = 0u; z0 < p.Z; z0 += ZL) {
    let z = z0 + lid.y;
    var sw = 0.0;
    var sb = 0.0;
    if (z < p.Z) {
      let end = min(p.R, (z + 1u) * ROWS);
      for (var r = z * ROWS; r < end; r++) {
        let d = dout[r * C + cr];
        sw += d * (inp[r * C + cr] - stats[r]) * stats[p.R + r];
        sb += d;
      }
    }
    part_w[lid.y * CW + lid.x] = sw;
    part_b[lid.y * CW + lid.x] = sb;
    workgroupBarrier();
    if (lid.y == 0u) {
      let n = min(ZL, p.Z - z0);
      for (var k = 0u; k < n; k++) {
        aw += part_w[k * CW + lid.x];
        ab += part_b[k * CW + lid.x];
      }
    }
    workgroupBarrier();
  }
  if (lid.y == 0u && c < C) {
    dw[c] += aw;
    db[c] += ab;
  }
}

@compute @workgroup_size(CW, ZL)
fn main(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(local_invocation_id) lid: vec3u,
  @builtin(local_invocation_index) li: u32,
) {
  if (wid.x < p.CG) {
    params_columns(wid.x, lid);
  } else {
    let i = (wid.x - p.CG) * CW * ZL + li;
    if (i < p.R) { dinp_row(i); }
  }
}
