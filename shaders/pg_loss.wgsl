// pg_loss: clipped policy-gradient surrogate with optional dual clip, KL penalty to a
// reference policy (k1 or k3) and entropy bonus (docs/engine.md, "Policy-gradient loss").
// (=) into dlogp, dent (per token), seqLoss and stats (per sequence). Tokens with mask = 0
// contribute nothing. CPU twin: pgLoss in src/reference/ops.ts.
//
// Two entry points, dispatched in order, so that no pipeline binds more than 8 storage
// buffers (the WebGPU default; some browsers offer no more than 10, and the kernel has 11):
//   per_token     one thread per token: the parts that do not depend on the aggregation
//                 (log-ratio, KL and entropy terms) into the scratch buffer;
//   per_sequence  one thread per sequence, tokens in order: weights, surrogate, outputs and
//                 statistics. Every output has a single owner, so nothing is reduced across
//                 threads.

override WG: u32 = 64;

// The first 12 words are the per-step parameters (rewritten by writePgLossParams in
// src/gpu/ops.ts); the shape comes after them.
struct Params {
  epsLow: f32,
  epsHigh: f32,
  dualClip: f32,    // active when > 1
  beta: f32,        // KL weight
  klKind: u32,      // 1 = k1, 3 = k3
  alpha: f32,       // entropy bonus
  aggregation: u32, // 0 token-mean, 1 seq-mean-token-mean, 2 seq-mean-token-sum, 3 …-sum-norm
  maxLen: f32,
  totalTokens: f32,
  totalSeqs: f32,
  _pad0: u32,
  _pad1: u32,
  N: u32,
  T: u32,
}

@group(0) @binding(0) var<storage, read_write> dlogp: array<f32>;   // [N*T]
@group(0) @binding(1) var<storage, read_write> dent: array<f32>;    // [N*T]
@group(0) @binding(2) var<storage, read_write> seqLoss: array<f32>; // [N]
@group(0) @binding(3) var<storage, read_write> stats: array<f32>;   // [N, 8]
@group(0) @binding(4) var<storage, read> logp: array<f32>;          // [N*T] current policy
@group(0) @binding(5) var<storage, read> oldLogp: array<f32>;       // [N*T] rollout policy
@group(0) @binding(6) var<storage, read> refLogp: array<f32>;       // [N*T] frozen reference
@group(0) @binding(7) var<storage, read> adv: array<f32>;           // [N*T] advantages A
@group(0) @binding(8) var<storage, read> mask: array<f32>;          // [N*T] 1 = trained token
@group(0) @binding(9) var<storage, read> klMask: array<f32>;        // [N*T] 1 = KL applies
@group(0) @binding(10) var<storage, read> entropy: array<f32>;      // [N*T] H of the policy
// scratch [N*T, 4]: log-ratio, β·KL − α·H, β·∂KL/∂logp, k3 where klMask (for the metric)
@group(0) @binding(11) var<storage, read_write> tok: array<vec4f>;
@group(0) @binding(12) var<uniform> p: Params;

@compute @workgroup_size(WG)
fn per_token(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WG;
  if (i >= p.N * p.T) { return; }
  let r = refLogp[i] - logp[i]; // KL to the reference, r = refLogp − logp
  let k3 = exp(r) - r - 1.0;
  var kl = 0.0;
  var dkl = 0.0;
  let klOn = klMask[i] != 0.0;
  if (klOn && p.beta > 0.0) {
    if (p.klKind == 1u) { kl = -r; dkl = 1.0; } else { kl = k3; dkl = 1.0 - exp(r); }
  }
  tok[i] = vec4f(logp[i] - oldLogp[i], p.beta * kl - p.alpha * entropy[i], p.beta * dkl, select(0.0, k3, klOn));
}

@compute @workgroup_size(WG)
fn per_sequence(@builtin(global_invocation_id) gid: vec3u) {
  let n = gid.x;
  if (n >= p.N) { return; }
  let T = p.T;
  let lo = 1.0 - p.epsLow;
  let hi = 1.0 + p.epsHigh;
  let useDual = p.dualClip > 1.0;

  var len = 0u;
  for (var t = 0u; t < T; t++) { if (mask[n * T + t] != 0.0) { len++; } }
  var w = 0.0; // this sequence's token weight (the aggregation)
  switch (p.aggregation) {
    case 0u: { w = 1.0 / p.totalTokens; }
    case 1u: { if (len > 0u) { w = 1.0 / (p.totalSeqs * f32(len)); } }
    case 2u: { w = 1.0 / p.totalSeqs; }
    default: { w = 1.0 / (p.totalSeqs * p.maxLen); }
  }

  var loss = 0.0;
  var count = 0.0;
  var clipLow = 0.0;
  var clipHigh = 0.0;
  var sumRatio = 0.0;
  var maxRatio = 0.0;
  var sumKl = 0.0;
  var dualCount = 0.0;
  var sumLogRatio = 0.0;
  for (var t = 0u; t < T; t++) {
    let i = n * T + t;
    if (mask[i] == 0.0) {
      dlogp[i] = 0.0;
      dent[i] = 0.0;
      continue;
    }
    let A = adv[i];
    let k = tok[i];
    let ratio = exp(k.x);
    // min(ρA, clip(ρ)A): the clipped, constant branch wins exactly in these two cases
    let isLow = A < 0.0 && ratio < lo;
    let isHigh = A > 0.0 && ratio > hi;
    var s = ratio * A;
    var ds = ratio * A; // ∂s/∂logp
    if (isLow) { s = lo * A; ds = 0.0; } else if (isHigh) { s = hi * A; ds = 0.0; }
    let isDual = useDual && A < 0.0 && p.dualClip * A > s;
    if (isDual) { s = p.dualClip * A; ds = 0.0; }
    loss += w * (-s + k.y);
    dlogp[i] = w * (-ds + k.z);
    dent[i] = -w * p.alpha;
    count += 1.0;
    if (isLow) { clipLow += 1.0; }
    if (isHigh) { clipHigh += 1.0; }
    if (isDual) { dualCount += 1.0; }
    sumRatio += ratio;
    maxRatio = max(maxRatio, ratio);
    sumKl += k.w;
    sumLogRatio += k.x;
  }
  seqLoss[n] = loss;
  let st = n * 8u;
  stats[st + 0u] = count;
  stats[st + 1u] = clipLow;
  stats[st + 2u] = clipHigh;
  stats[st + 3u] = sumRatio;
  stats[st + 4u] = maxRatio;
  stats[st + 5u] = sumKl;
  stats[st + 6u] = dualCount;
  stats[st + 7u] = sumLogRatio;
}
