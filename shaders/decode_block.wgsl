// decode_block (KV-cache decoding): one whole transformer block for the new position
// pos = cursor[0] of every sequence, in one dispatch, the residual row x[n,:] updated in place:
//   ln = layernorm(x; ln1)            qkv = ln·Wqkv + bqkv → cache[n,pos,:]
//   atty = attention of q_pos over the cache rows 0..pos     mid = x + atty·Wproj + bproj
//   ln = layernorm(mid; ln2)          h = gelu(ln·Wfc + bfc)   x = mid + h·Wfcproj + bfcproj
// The models are narrow (C ≤ 128), so one workgroup per sequence keeps the row and every
// intermediate in workgroup memory and replaces the 11 dispatches of the unfused step
// (layernorm, matmul, copy_rows, attention_decode, matmul, add, layernorm, matmul, gelu, matmul,
// add). Each value is computed with the same operations in the same order as those kernels:
// layernorm's two-pass mean and variance in channel order, matmul outputs starting from the
// bias and adding k in order, attention's scores, max, exp-sum and weighted sum in row order.
// The weights are slices of the one parameter buffer, at the float offsets of the uniform.
// CPU twin: decodeBlock in src/reference/decode.ts.

//#include "gelu.wgsl"

override WG: u32 = 64;
override CMAX: u32 = 128;  // C (the workgroup arrays' length)
override TMAX: u32 = 32;   // the cache's rows
override NHMAX: u32 = 4;   // NH

struct Params {
  N: u32, Tmax: u32, C: u32, NH: u32,
  ln1w: u32, ln1b: u32, qkvw: u32, qkvb: u32,
  projw: u32, projb: u32, ln2w: u32, ln2b: u32,
  fcw: u32, fcb: u32, fcprojw: u32, fcprojb: u32,
}

@group(0) @binding(0) var<storage, read_write> x: array<f32>;     // [N, C] residual row, in place
@group(0) @binding(1) var<storage, read_write> cache: array<f32>; // [N, Tmax, 3C] q|k|v per position
@group(0) @binding(2) var<storage, read> w: array<f32>;           // [P] the parameter buffer
@group(0) @binding(3) var<storage, read> cursor: array<u32>;      // [≥1] cursor[0] = pos
@group(0) @binding(4) var<uniform> p: Params;

const EPS: f32 = 1e-5;

var<workgroup> xs: array<f32, CMAX>;           // the residual row, then mid
var<workgroup> ln: array<f32, CMAX>;           // layernorm output
var<workgroup> atty: array<f32, CMAX>;         // attention output
var<workgroup> hid: array<f32, 4 * CMAX>;      // gelu(fc)
var<workgroup> scores: array<f32, NHMAX * TMAX>; // [NH, pos + 1]
var<workgroup> stats: array<f32, 2>;           // mean, rstd of the row being normalised

// ln = layernorm(xs) with the weights at (wo, bo): one thread takes the row's mean and rstd in
// channel order (as layernorm_forward does), then every thread writes its channels.
fn layernorm_row(lid: u32, wo: u32, bo: u32) {
  let C = p.C;
  if (lid == 0u) {
    var m = 0.0;
    for (var c = 0u; c < C; c++) { m += xs[c]; }
    m /= f32(C);
    var v = 0.0;
    for (var c = 0u; c < C; c++) {
      let d = xs[c] - m;
      v += d * d;
    }
    v /= f32(C);
    stats[0] = m;
    stats[1] = 1.0 / sqrt(v + EPS);
  }
  workgroupBarrier();
  let m = stats[0];
  let s = stats[1];
  for (var c = lid; c < C; c += WG) { ln[c] = (xs[c] - m) * s * w[wo + c] + w[bo + c]; }
  workgroupBarrier();
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  let n = wid.x + wid.y * nwg.x;
  let pos = cursor[0];
  // Uniform per workgroup, so the early return keeps the barriers in uniform control flow.
  if (n >= p.N || pos >= p.Tmax) { return; }
  let C = p.C;
  let C3 = 3u * C;
  let C4 = 4u * C;
  let NH = p.NH;
  let hd = C / NH;
  let base = n * p.Tmax * C3; // this sequence's cache
  let row = base + pos * C3;  // its new row

  for (var c = lid; c < C; c += WG) { xs[c] = x[n * C + c]; }
  workgroupBarrier();

  // attention branch
  layernorm_row(lid, p.ln1w, p.ln1b);
  for (var j = lid; j < C3; j += WG) {
    var s = w[p.qkvb + j];
    for (var k = 0u; k < C; k++) { s += ln[k] * w[p.qkvw + k * C3 + j]; }
    cache[row + j] = s;
  }
  // The cache row written above is read by other threads of this workgroup below.
  storageBarrier();
  workgroupBarrier();

  let S = pos + 1u;
  let scale = 1.0 / sqrt(f32(hd));
  for (var i = lid; i < NH * S; i += WG) {
    let h = i / S;
    let s = i % S;
    let q = row + h * hd;
    let k = base + s * C3 + C + h * hd;
    var dot = 0.0;
    for (var d = 0u; d < hd; d++) { dot += cache[q + d] * cache[k + d]; }
    scores[h * TMAX + s] = dot * scale;
  }
  workgroupBarrier();
  for (var c = lid; c < C; c += WG) {
    let h = c / hd;
    var mx = -3.402823e38;
    for (var s = 0u; s < S; s++) { mx = max(mx, scores[h * TMAX + s]); }
    var sum = 0.0;
    var acc = 0.0;
    for (var s = 0u; s < S; s++) {
      let e = exp(scores[h * TMAX + s] - mx);
      sum += e;
      acc += e * cache[base + s * C3 + 2u * C + c];
    }
    atty[c] = acc / sum;
  }
  workgroupBarrier();
  // mid = x + atty·Wproj + bproj; each thread owns its channels of xs
  for (var j = lid; j < C; j += WG) {
    var s = w[p.projb + j];
    for (var k = 0u; k < C; k++) { s += atty[k] * w[p.projw + k * C + j]; }
    xs[j] = xs[j] + s;
  }
  workgroupBarrier();

  // MLP branch
  layernorm_row(lid, p.ln2w, p.ln2b);
  for (var j = lid; j < C4; j += WG) {
    var s = w[p.fcb + j];
    for (var k = 0u; k < C; k++) { s += ln[k] * w[p.fcw + k * C4 + j]; }
    hid[j] = 0.5 * s * (1.0 + tanh(gelu_u(s)));
  }
  workgroupBarrier();
  for (var j = lid; j < C; j += WG) {
    var s = w[p.fcprojb + j];
    for (var k = 0u; k < C4; k++) { s += hid[k] * w[p.fcprojw + k * C + j]; }
    x[n * C + j] = xs[j] + s;
  }
}
