// attention_forward_rows: attention_forward's semantics (=) into out, att (read its header), with
// a workgroup per query row (n,h,t) instead of a thread: lanes stride over the keys s ≤ t for the
// scores, the row's max and Σ exp are workgroup reductions (row_reduce.wgsl: subgroups where the
// device has them, else the shared-memory tree), then lanes stride over the head's hd channels,
// each summing att·v over s in order. What attentionForwardOp dispatches on a device with
// subgroups (docs/engine.md, "Device features"); the thread-per-row kernel stays the fallback.
// CPU twin: attentionForward in src/reference/ops.ts.

//#include "attention_rows.wgsl"
//#include "row_reduce.wgsl"

override WG: u32 = 64; // power of two

@group(0) @binding(0) var<storage, read_write> out: array<f32>; // [N, T, C]
@group(0) @binding(1) var<storage, read_write> att: array<f32>; // [N, NH, T, T]
@group(0) @binding(2) var<storage, read> qkv: array<f32>;       // [N, T, 3C]
@group(0) @binding(3) var<uniform> p: Params;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, ids: ReduceIds) {
  let row = query_row_at(wid.x + wid.y * nwg.x);
  if (row.idx >= p.N * p.NH * p.T) { return; }
  let lid = ids.lid;
  let t = row.t;
  let a = row.att;

  var mx = -3.402823e38;
  for (var s = lid; s <= t; s += WG) {
    let z = attention_score(row, s);
    att[a + s] = z;
    mx = max(mx, z);
  }
  mx = row_max(ids, mx);
  var sum = 0.0;
  for (var s = lid; s <= t; s += WG) {
    let e = exp(att[a + s] - mx);
    att[a + s] = e;
    sum += e;
  }
  sum = row_sum(ids, sum);
  for (var s = lid; s <= t; s += WG) { att[a + s] /= sum; }
  for (var s = t + 1u + lid; s < p.T; s += WG) { att[a + s] = 0.0; }
  storageBarrier(); // the row's probabilities, written by every lane, before any lane reads them

  for (var d = lid; d < row.hd; d += WG) {
    var acc = 0.0;
    for (var s = 0u; s <= t; s++) { acc += att[a + s] * qkv[row.qkv0 + s * row.C3 + 2u * p.C + d]; }
    out[row.out + d] = acc;
  }
}
