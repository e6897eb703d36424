// attention_forward: causal multi-head self-attention, scale 1/sqrt(hd).  (=) into out, att.
// A row of qkv is [q | k | v], each C wide; head h uses channels h·hd..(h+1)·hd of each.
//   att[n,h,t,s] = softmax_{s≤t}(q_t·k_s·scale), 0 for s > t;  out[n,t,h·hd+d] = Σ_s att·v_s[d]
// One thread per query row (n,h,t) (attention_rows.wgsl); the att row doubles as scratch for
// the scores. CPU twin: attentionForward in src/reference/ops.ts.

//#include "attention_rows.wgsl"

override WG: u32 = 64;

@group(0) @binding(0) var<storage, read_write> out: array<f32>; // [N, T, C]
@group(0) @binding(1) var<storage, read_write> att: array<f32>; // [N, NH, T, T]
@group(0) @binding(2) var<storage, read> qkv: array<f32>;       // [N, T, 3C]
@group(0) @binding(3) var<uniform> p: Params;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let row = query_row(gid, nwg);
  if (row.idx >= p.N * p.NH * p.T) { return; }
  let t = row.t;
  let a = row.att;

  var mx = -3.402823e38;
  for (var s = 0u; s <= t; s++) {
    let z = attention_score(row, s);
    att[a + s] = z;
    mx = max(mx, z);
  }
  var sum = 0.0;
  for (var s = 0u; s <= t; s++) {
    let e = exp(att[a + s] - mx);
    att[a + s] = e;
    sum += e;
  }
  for (var s = 0u; s <= t; s++) { att[a + s] /= sum; }
  for (var s = t + 1u; s < p.T; s++) { att[a + s] = 0.0; }

  for (var d = 0u; d < row.hd; d++) {
    var acc = 0.0;
    for (var s = 0u; s <= t; s++) { acc += att[a + s] * qkv[row.qkv0 + s * row.C3 + 2u * p.C + d]; }
    out[row.out + d] = acc;
  }
}
