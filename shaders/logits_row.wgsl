// The statistics of one row of tempered logits z = logits·invTemp, computed by a whole
// workgroup, and the frame of a kernel with one workgroup per row. A library file, pulled in
// with `//#include "logits_row.wgsl"` by logits_stats.wgsl and logits_backward.wgsl, so the two
// agree bit for bit on the row's log-sum-exp and regulator. It holds the entry point `main`
// (workgroup r of a 2-D grid, so R may pass 65535), which calls the including kernel's
// `fn logits_kernel(ids: ReduceIds, r: u32)` for r < R. The kernel declares `override WG: u32`
// (a power of two), the storage array `logits` ([R, V]) and `var<uniform> p: Params`; ids are
// row_reduce.wgsl's (the tree, or subgroups where the device has them). logits_row must be
// called from uniform control flow (the reductions have barriers): r is uniform per workgroup.

//#include "row_reduce.wgsl"

struct Params { R: u32, V: u32, invTemp: f32, regulator: u32 }

struct LogitsRow {
  x: u32,    // the row's first logit (r·V)
  lse: f32,  // log Σ_j exp(z_j)
  reg: f32,  // −Σ_j p_j log p_j (nats, regulator 0) or (1/V)·Σ_j log p_j (regulator 1)
}

fn logits_row(ids: ReduceIds, r: u32, regulator: u32) -> LogitsRow {
  let lid = ids.lid;
  let V = p.V;
  let x = r * V;
  var m = -3.402823e38;
  for (var j = lid; j < V; j += WG) { m = max(m, logits[x + j] * p.invTemp); }
  m = row_max(ids, m);
  var s = 0.0;
  for (var j = lid; j < V; j += WG) { s += exp(logits[x + j] * p.invTemp - m); }
  let lse = m + log(row_sum(ids, s));
  var h = 0.0;
  for (var j = lid; j < V; j += WG) {
    let lp = logits[x + j] * p.invTemp - lse; // log p_j: finite even when p_j underflows
    if (regulator == 1u) { h += lp / f32(V); } else { h -= exp(lp) * lp; }
  }
  return LogitsRow(x, lse, row_sum(ids, h));
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, ids: ReduceIds) {
  let r = wid.x + wid.y * nwg.x;
  if (r >= p.R) { return; }
  logits_kernel(ids, r);
}
