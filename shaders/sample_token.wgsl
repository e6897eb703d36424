// sample_token: one decoding step for every sequence, at position pos = cursor[0].
// The position comes from a storage buffer, not the uniform, so a whole autoregressive loop
// can be recorded in one command buffer with bind groups made once: the plan copies the
// next position into `cursor` (copyBufferToBuffer) between passes.
//   fixed[n,pos] ≥ 0: the environment owns the position; copy it, logp = entropy = 0.
//   otherwise:        u = uniform4(seed, step, n, pos); sample by inverse CDF, in index
//                     order, from softmax(z) (z = logits·invTemp) restricted to the topK
//                     largest logits (topK = 0 or ≥ V: all; ties go to the lower index).
//                     logp and entropy are those of the full tempered softmax (the policy
//                     the loss trains), not of the truncated one.
// One workgroup per sequence: the softmax statistics are shared-memory reductions; top-k
// membership is by counting (j is kept iff fewer than topK logits beat it); the short
// inverse-CDF walk is done by one thread, in index order, like the CPU twin.
// CPU twin: sampleToken in src/reference/ops.ts (it takes pos as a number).

//#include "random.wgsl"
//#include "reduce.wgsl"

override WG: u32 = 64;      // power of two
override MAX_V: u32 = 1024; // capacity of the shared weight array (V ≤ MAX_V)

// Words 0..3 change every step (writeSampleTokenParams in src/gpu/ops.ts); the shape follows.
struct Params {
  seed: u32,
  step: u32,
  invTemp: f32,
  topK: u32,
  N: u32,
  V: u32,
  Tmax: u32,
}

@group(0) @binding(0) var<storage, read_write> tokens: array<i32>;  // [N, Tmax] written at pos
@group(0) @binding(1) var<storage, read_write> logp: array<f32>;    // [N, Tmax] written at pos
@group(0) @binding(2) var<storage, read_write> entropy: array<f32>; // [N, Tmax] written at pos
@group(0) @binding(3) var<storage, read> logits: array<f32>;        // [N, V] next-token logits
@group(0) @binding(4) var<storage, read> fixed: array<i32>;         // [N, Tmax] ≥ 0: env's token
@group(0) @binding(5) var<storage, read> cursor: array<u32>;        // [≥1] cursor[0] = pos
@group(0) @binding(6) var<uniform> p: Params;

// exp(z_j − max) of the kept logits, −1 for the ones outside the top k
var<workgroup> wts: array<f32, MAX_V>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  let n = wid.x + wid.y * nwg.x;
  let pos = cursor[0];
  if (n >= p.N || pos >= p.Tmax) { return; }
  let o = n * p.Tmax + pos;
  let f = fixed[o];
  if (f >= 0) {
    if (lid == 0u) {
      tokens[o] = f;
      logp[o] = 0.0;
      entropy[o] = 0.0;
    }
    return;
  }
  let V = p.V;
  let x = n * V;
  let it = p.invTemp;

  // full tempered softmax: max, log-sum-exp, entropy
  var m = -3.402823e38;
  for (var j = lid; j < V; j += WG) { m = max(m, logits[x + j] * it); }
  m = wg_max(lid, m);
  var s = 0.0;
  for (var j = lid; j < V; j += WG) { s += exp(logits[x + j] * it - m); }
  let lse = m + log(wg_sum(lid, s));
  var h = 0.0;
  for (var j = lid; j < V; j += WG) {
    let lp = logits[x + j] * it - lse;
    h -= exp(lp) * lp;
  }
  h = wg_sum(lid, h);

  // top-k membership by rank on the raw logits (ties: lower index ranks first)
  let allKept = p.topK == 0u || p.topK >= V;
  for (var j = lid; j < V; j += WG) {
    let lj = logits[x + j];
    var kept = allKept;
    if (!allKept) {
      var rank = 0u;
      for (var i = 0u; i < V; i++) {
        let li = logits[x + i];
        if (li > lj || (li == lj && i < j)) { rank++; }
      }
      kept = rank < p.topK;
    }
    wts[j] = select(-1.0, exp(lj * it - m), kept);
  }
  workgroupBarrier();

  if (lid == 0u) {
    var total = 0.0;
    for (var j = 0u; j < V; j++) { total += max(wts[j], 0.0); }
    let goal = uniform4(p.seed, p.step, n, pos) * total;
    var cum = 0.0;
    var tok = 0u;
    for (var j = 0u; j < V; j++) {
      let w = wts[j];
      if (w < 0.0) { continue; }
      cum += w;
      tok = j; // rounding fallback: the last kept index
      if (goal < cum) { break; }
    }
    tokens[o] = i32(tok);
    logp[o] = logits[x + tok] * it - lse;
    entropy[o] = h;
  }
}
