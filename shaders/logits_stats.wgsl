// logits_stats: with z = logits·invTemp (the tempered policy),
//   logp[r] = log softmax(z)[targets[r]]  (0 when the target is outside [0,V)),
//   entropy[r] = the regulator: −Σ_j p_j log p_j (nats, regulator 0) or (1/V)·Σ_j log p_j
//   (regulator 1, "uniform": −CE(uniform, p)).   (=)
// One workgroup per row: V can be hundreds and R·V is one of the largest tensors, so the
// row's max / Σexp / entropy are workgroup reductions (logits_row.wgsl, shared with
// logits_backward).
// CPU twin: logitsStats in src/reference/ops.ts.

//#include "logits_row.wgsl"

override WG: u32 = 64; // power of two

@group(0) @binding(0) var<storage, read_write> logp: array<f32>;    // [R]
@group(0) @binding(1) var<storage, read_write> entropy: array<f32>; // [R]
@group(0) @binding(2) var<storage, read> logits: array<f32>;        // [R, V]
@group(0) @binding(3) var<storage, read> targets: array<i32>;       // [R]
@group(0) @binding(4) var<uniform> p: Params;

// Row r, for each r < R (logits_row.wgsl's main).
fn logits_kernel(ids: ReduceIds, r: u32) {
  let lid = ids.lid;
  let row = logits_row(ids, r, p.regulator);
  if (lid == 0u) {
    let tgt = targets[r];
    var lpt = 0.0;
    if (tgt >= 0 && u32(tgt) < p.V) { lpt = logits[row.x + u32(tgt)] * p.invTemp - row.lse; }
    logp[r] = lpt;
    entropy[r] = row.reg;
  }
}
