// logits_backward: dL/dlogits for L = Σ_r dlogp[r]·logp[r] + dent[r]·reg[r]   (=)
// reg is logits_stats' regulator (same flag). With p = softmax(z), z = logits·invTemp, H the entropy:
//   dL/dz_j = dlogp·(δ_{j,target} − p_j) − dent·p_j·(log p_j + H)   (regulator 0: entropy)
//   dL/dz_j = dlogp·(δ_{j,target} − p_j) + dent·(1/V − p_j)          (regulator 1: uniform)
// and dlogits = invTemp·dL/dz.
// A target outside [0,V) has logp ≡ 0, so its row gets no dlogp term.
// One workgroup per row (workgroup reductions for the row's statistics: logits_row.wgsl,
// the same as logits_stats').
// CPU twin: logitsBackward in src/reference/ops.ts.

//#include "logits_row.wgsl"

override WG: u32 = 64; // power of two

@group(0) @binding(0) var<storage, read_write> dlogits: array<f32>; // [R, V]
@group(0) @binding(1) var<storage, read> logits: array<f32>;        // [R, V]
@group(0) @binding(2) var<storage, read> targets: array<i32>;       // [R]
@group(0) @binding(3) var<storage, read> dlogp: array<f32>;         // [R]
@group(0) @binding(4) var<storage, read> dent: array<f32>;          // [R]
@group(0) @binding(5) var<uniform> p: Params;

// Row r, for each r < R (logits_row.wgsl's main).
fn logits_kernel(ids: ReduceIds, r: u32) {
  let lid = ids.lid;
  let V = p.V;
  let row = logits_row(ids, r, 0u); // row.reg is the entropy H (regulator 0's term needs it)
  let tgt = targets[r];
  var gl = 0.0;
  if (tgt >= 0 && u32(tgt) < V) { gl = dlogp[r]; }
  let ge = dent[r];
  for (var j = lid; j < V; j += WG) {
    let lp = logits[row.x + j] * p.invTemp - row.lse;
    let pj = exp(lp);
    let onehot = select(0.0, 1.0, i32(j) == tgt);
    var dreg = -pj * (lp + row.reg);
    if (p.regulator == 1u) { dreg = 1.0 / f32(V) - pj; }
    dlogits[row.x + j] = p.invTemp * (gl * (onehot - pj) + ge * dreg);
  }
}
