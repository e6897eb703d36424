// attention_backward: gradients of attention_forward.  (=) into dqkv.
// With P = att row t (of head h), dP_s = dout_t·v_s and the softmax backward
//   dz[t,s] = scale·P_s·(dP_s − Σ_u P_u dP_u):
//   dq_t = Σ_{s≤t} dz[t,s]·k_s,   dk_s = Σ_{t≥s} dz[t,s]·q_t,   dv_s = Σ_{t≥s} P[t,s]·dout_t.
// Two entry points, dispatched in order, so that every output has one owner (no atomics):
//   scores  one thread per row (n,h,t): dz row into the scratch buffer;
//   grads   one thread per element of dqkv, summing over s (for q) or t (for k, v) in order.
// CPU twin: attentionBackward in src/reference/ops.ts.

//#include "attention_rows.wgsl"

override WG: u32 = 64;

@group(0) @binding(0) var<storage, read_write> dqkv: array<f32>; // [N, T, 3C]
@group(0) @binding(1) var<storage, read> dout: array<f32>;       // [N, T, C]
@group(0) @binding(2) var<storage, read> qkv: array<f32>;        // [N, T, 3C]
@group(0) @binding(3) var<storage, read> att: array<f32>;        // [N, NH, T, T]
@group(0) @binding(4) var<storage, read_write> dz: array<f32>;   // [N, NH, T, T] scratch (s ≤ t used)
@group(0) @binding(5) var<uniform> p: Params;

@compute @workgroup_size(WG)
fn scores(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let row = query_row(gid, nwg);
  if (row.idx >= p.N * p.NH * p.T) { return; }
  let a = row.att;
  var pdp = 0.0; // Σ_u P_u dP_u
  for (var s = 0u; s <= row.t; s++) {
    let v = row.qkv0 + s * row.C3 + 2u * p.C;
    var dot = 0.0;
    for (var d = 0u; d < row.hd; d++) { dot += dout[row.out + d] * qkv[v + d]; }
    dz[a + s] = dot;
    pdp += att[a + s] * dot;
  }
  for (var s = 0u; s <= row.t; s++) {
    dz[a + s] = att[a + s] * (dz[a + s] - pdp) * row.scale;
  }
}

@compute @workgroup_size(WG)
fn grads(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WG; // = (n·T + t)·3C + j
  let T = p.T;
  let C = p.C;
  let C3 = 3u * C;
  if (i >= p.N * T * C3) { return; }
  let j = i % C3;
  let t = (i / C3) % T;
  let n = i / (C3 * T);
  let part = j / C; // 0 q, 1 k, 2 v
  let c = j % C;
  let hd = C / p.NH;
  let h = c / hd;
  let head = (n * p.NH + h) * T; // first row of att[n,h,:,:]
  var acc = 0.0;
  if (part == 0u) {
    // dq_t: row t of dz against k_s
    for (var s = 0u; s <= t; s++) { acc += dz[(head + t) * T + s] * qkv[(n * T + s) * C3 + C + c]; }
  } else if (part == 1u) {
    // dk_t: column t of dz against q_u, u ≥ t
    for (var u = t; u < T; u++) { acc += dz[(head + u) * T + t] * qkv[(n * T + u) * C3 + c]; }
  } else {
    // dv_t: column t of att against dout_u, u ≥ t
    for (var u = t; u < T; u++) { acc += att[(head + u) * T + t] * dout[(n * T + u) * C + c]; }
  }
  dqkv[i] = acc;
}
