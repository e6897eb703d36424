// matmul: out = op(a)·op(b) (+ bias)   (= , or += when ACCUM)
// op(a) is [M,K], stored [K,M] when TRANS_A; op(b) is [K,N], stored [N,K] when TRANS_B.
// (N is the matmul's column count here, not the sequence count.)
//   forward linear  a = inp[R,IC], b = W[IC,OC] (HF Conv1D layout), bias
//   tied LM head    a = x[R,C],   b = wte[V,C], TRANS_B
//   input grad      dinp += dout·Wᵀ  (TRANS_B, ACCUM);  weight grad dW += inpᵀ·dout (TRANS_A, ACCUM)
// Three variants, chosen by entry point:
//   naive  one thread per output element;
//   tuned  one thread per 4×4 output tile held in registers, no shared memory and no
//          barriers (fastest on SwiftShader, where barriers are expensive);
//   tiled  the same 4×4 register tiles, with the workgroup's (4·WY)×TK slice of op(a) and
//          TK×(4·WX) slice of op(b) staged in shared memory (fewer global loads: the usual
//          choice on real GPUs).
// Each output starts from bias[n] and adds k in order, like the CPU twin (matmul in
// src/reference/ops.ts). An epilogue (EPILOGUE, with the tensor `extra` [M, N]) saves a
// kernel after the sum s of an output (never with ACCUM):
//   1 residual       out = extra + s            (the residual add after a projection)
//   2 gelu           extra = s, out = gelu(s)   (fc: the pre-activation kept for backward)
//   3 gelu backward  out = gelu'(extra)·s       (the fc-projection's input grad, through gelu)
// CPU twin: matmulEpilogue in src/reference/matmul-epilogue.ts.
// A layernorm prologue (LN_PROLOGUE, never with TRANS_A) saves the layernorm kernel before the
// matmul: op(a) is the layernorm of the rows of `a` (the residual stream x [M, K]) with the
// weights lnwb, each row's mean and rstd computed by layernorm_forward's loops, and the
// normalised rows and their statistics stored in ln and stats for the backward (by the threads
// of the first column tile, so each once). The same bits as layernorm_forward, then the matmul.
// CPU twin: matmulLayernorm in src/reference/matmul-epilogue.ts.

override TRANS_A: bool = false;
override TRANS_B: bool = false;
override ACCUM: bool = false;
override HAS_BIAS: bool = false;
override EPILOGUE: u32 = 0u; // 0 none, 1 residual, 2 gelu, 3 gelu backward
override LN_PROLOGUE: bool = false;
override WX: u32 = 8; // workgroup size along n (columns)
override WY: u32 = 8; // workgroup size along m (rows)

struct Params { M: u32, K: u32, N: u32, lnB: u32 } // lnB: where the layernorm's bias starts in lnwb

@group(0) @binding(0) var<storage, read_write> out: array<f32>; // [M, N]
@group(0) @binding(1) var<storage, read> a: array<f32>;         // [M, K], or [K, M] if TRANS_A
@group(0) @binding(2) var<storage, read> b: array<f32>;         // [K, N], or [N, K] if TRANS_B
@group(0) @binding(3) var<storage, read> bias: array<f32>;      // [N] (a dummy when !HAS_BIAS)
@group(0) @binding(4) var<storage, read_write> extra: array<f32>; // [M, N] the epilogue's (a dummy when EPILOGUE = 0)
@group(0) @binding(5) var<storage, read> lnwb: array<f32>;        // [lnB + K] the layernorm's w at 0, b at lnB (a dummy without LN_PROLOGUE)
@group(0) @binding(6) var<storage, read_write> ln: array<f32>;     // [M, K] (=) the normalised rows (a dummy without LN_PROLOGUE)
@group(0) @binding(7) var<storage, read_write> stats: array<f32>;  // [2, M] (=) mean, then rstd (a dummy without LN_PROLOGUE)
@group(0) @binding(8) var<uniform> p: Params;

//#include "matmul_operands.wgsl"
//#include "gelu.wgsl"

const EPS: f32 = 1e-5;

// (mean, rstd) of row m of a: layernorm_forward's two passes, term by term.
fn ln_stats(m: u32) -> vec2f {
  if (!LN_PROLOGUE) { return vec2f(0.0); }
  let x = m * p.K;
  var mu = 0.0;
  for (var c = 0u; c < p.K; c++) { mu += a[x + c]; }
  mu /= f32(p.K);
  var v = 0.0;
  for (var c = 0u; c < p.K; c++) {
    let d = a[x + c] - mu;
    v += d * d;
  }
  v /= f32(p.K);
  return vec2f(mu, 1.0 / sqrt(v + EPS));
}

// op(a)[m, k]: a's element, or its layernorm with the row's statistics st.
fn a_val(m: u32, k: u32, st: vec2f) -> f32 {
  if (LN_PROLOGUE) { return (a[m * p.K + k] - st.x) * st.y * lnwb[k] + lnwb[p.lnB + k]; }
  return a_at(m, k);
}

// Row m's normalised values and statistics, for the backward (one thread per row calls it).
fn ln_store(m: u32, st: vec2f) {
  if (!LN_PROLOGUE) { return; }
  for (var c = 0u; c < p.K; c++) { ln[m * p.K + c] = a_val(m, c, st); }
  stats[m] = st.x;
  stats[p.M + m] = st.y;
}

fn bias_at(n: u32) -> f32 {
  if (HAS_BIAS) { return bias[n]; }
  return 0.0;
}

fn store(m: u32, n: u32, s: f32) {
  let i = m * p.N + n;
  switch (EPILOGUE) {
    case 1u: { out[i] = extra[i] + s; }
    case 2u: {
      extra[i] = s;
      out[i] = gelu(s);
    }
    case 3u: { out[i] = gelu_grad(extra[i]) * s; }
    default: {
      if (ACCUM) { out[i] = out[i] + s; } else { out[i] = s; }
    }
  }
}

@compute @workgroup_size(WX, WY)
fn naive(@builtin(global_invocation_id) gid: vec3u) {
  let n = gid.x;
  let m = gid.y;
  if (m >= p.M || n >= p.N) { return; }
  let st = ln_stats(m);
  if (n == 0u) { ln_store(m, st); }
  var s = bias_at(n);
  for (var k = 0u; k < p.K; k++) { s += a_val(m, k, st) * b_at(k, n); }
  store(m, n, s);
}

@compute @workgroup_size(WX, WY)
fn tuned(@builtin(global_invocation_id) gid: vec3u) {
  let n0 = gid.x * 4u;
  let m0 = gid.y * 4u;
  if (m0 >= p.M || n0 >= p.N) { return; }
  // Edge tiles clamp their row/column indices so every load is in bounds and the k loop has
  // no branches; results for the clamped (duplicate) rows/columns are simply not stored.
  let ms = min(vec4u(m0) + vec4u(0u, 1u, 2u, 3u), vec4u(p.M - 1u));
  let ns = min(vec4u(n0) + vec4u(0u, 1u, 2u, 3u), vec4u(p.N - 1u));
  let st = array<vec2f, 4>(ln_stats(ms.x), ln_stats(ms.y), ln_stats(ms.z), ln_stats(ms.w));
  if (n0 == 0u) {
    for (var i = 0u; i < 4u && m0 + i < p.M; i++) { ln_store(m0 + i, st[i]); }
  }
  let b0 = vec4f(bias_at(ns.x), bias_at(ns.y), bias_at(ns.z), bias_at(ns.w));
  var c0 = b0; // row m0+0, columns n0..n0+3
  var c1 = b0;
  var c2 = b0;
  var c3 = b0;
  for (var k = 0u; k < p.K; k++) {
    let bv = vec4f(b_at(k, ns.x), b_at(k, ns.y), b_at(k, ns.z), b_at(k, ns.w));
    c0 += a_val(ms.x, k, st[0]) * bv;
    c1 += a_val(ms.y, k, st[1]) * bv;
    c2 += a_val(ms.z, k, st[2]) * bv;
    c3 += a_val(ms.w, k, st[3]) * bv;
  }
  let rows = array<vec4f, 4>(c0, c1, c2, c3);
  for (var i = 0u; i < 4u; i++) {
    let m = m0 + i;
    if (m >= p.M) { break; }
    for (var j = 0u; j < 4u; j++) {
      if (n0 + j < p.N) { store(m, n0 + j, rows[i][j]); }
    }
  }
}

// ─── tiled ──────────────────────────────────────────────────────────────────────────────────

const TK: u32 = 16u; // k depth of a shared-memory stage

var<workgroup> a_tile: array<f32, TK * 4u * WY>; // [TK, 4·WY]: op(a)[m0 + mm, k0 + kk] at kk·4WY + mm
var<workgroup> b_tile: array<f32, TK * 4u * WX>; // [TK, 4·WX]: op(b)[k0 + kk, n0 + nn] at kk·4WX + nn
var<workgroup> ln_tile: array<vec2f, 4u * WY>;    // [4·WY] the layernorm statistics of the workgroup's rows

@compute @workgroup_size(WX, WY)
fn tiled(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_id) lid: vec3u, @builtin(local_invocation_index) li: u32) {
  let TM = 4u * WY;
  let TN = 4u * WX;
  let m0 = wid.y * TM;
  let n0 = wid.x * TN;
  // every thread of an edge workgroup stays to the end (it takes part in the barriers);
  // out-of-range rows/columns are staged as zeros and not stored
  let ns = min(vec4u(n0 + 4u * lid.x) + vec4u(0u, 1u, 2u, 3u), vec4u(p.N - 1u));
  let b0 = vec4f(bias_at(ns.x), bias_at(ns.y), bias_at(ns.z), bias_at(ns.w));
  var c0 = b0;
  var c1 = b0;
  var c2 = b0;
  var c3 = b0;
  if (LN_PROLOGUE) {
    for (var e = li; e < TM; e += WX * WY) {
      let m = min(m0 + e, p.M - 1u);
      ln_tile[e] = ln_stats(m);
      if (wid.x == 0u && m0 + e < p.M) { ln_store(m, ln_tile[e]); }
    }
    workgroupBarrier();
  }
  for (var k0 = 0u; k0 < p.K; k0 += TK) {
    // cooperative loads; consecutive threads read consecutive addresses of the stored layout
    for (var e = li; e < TK * TM; e += WX * WY) {
      var kk = e / TM;
      var mm = e % TM;
      if (!TRANS_A) { kk = e % TK; mm = e / TK; }
      let m = m0 + mm;
      let k = k0 + kk;
      var x = 0.0;
      if (m < p.M && k < p.K) { x = a_val(m, k, ln_tile[mm]); }
      a_tile[kk * TM + mm] = x;
    }
    for (var e = li; e < TK * TN; e += WX * WY) {
      var kk = e / TN;
      var nn = e % TN;
      if (TRANS_B) { kk = e % TK; nn = e / TK; }
      let n = n0 + nn;
      let k = k0 + kk;
      var x = 0.0;
      if (n < p.N && k < p.K) { x = b_at(k, n); }
      b_tile[kk * TN + nn] = x;
    }
    workgroupBarrier();
    let steps = min(TK, p.K - k0); // the zero padding past K is skipped, so sums match the other variants
    for (var kk = 0u; kk < steps; kk++) {
      let ar = kk * TM + 4u * lid.y;
      let br = kk * TN + 4u * lid.x;
      let bv = vec4f(b_tile[br], b_tile[br + 1u], b_tile[br + 2u], b_tile[br + 3u]);
      c0 += a_tile[ar] * bv;
      c1 += a_tile[ar + 1u] * bv;
      c2 += a_tile[ar + 2u] * bv;
      c3 += a_tile[ar + 3u] * bv;
    }
    workgroupBarrier();
  }
  let mt = m0 + 4u * lid.y;
  let nt = n0 + 4u * lid.x;
  let rows = array<vec4f, 4>(c0, c1, c2, c3);
  for (var i = 0u; i < 4u; i++) {
    if (mt + i >= p.M) { break; }
    for (var j = 0u; j < 4u; j++) {
      if (nt + j < p.N) { store(mt + i, nt + j, rows[i][j]); }
    }
  }
}
