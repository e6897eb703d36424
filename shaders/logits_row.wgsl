// The statistics of one row of tempered logits z = logits·invTemp, computed by a whole
// workgroup. A library file (no entry point), pulled in with `//#include "logits_row.wgsl"` by
// logits_stats.wgsl and logits_backward.wgsl, so the two agree bit for bit on the row's
// log-sum-exp and regulator. The including kernel declares `override WG: u32` (a power of two),
// the storage array `logits` ([R, V]) and `var<uniform> p: Params`, and takes `ids: ReduceIds`
// (row_reduce.wgsl: the tree, or subgroups where the device has them). Call from uniform
// control flow (the reductions have barriers).

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
