// The statistics of one row of tempered logits z = logits·invTemp, computed by a whole
// workgroup. A library file (no entry point), pulled in with `//#include "logits_row.wgsl"` by
// logits_stats.wgsl and logits_backward.wgsl, so the two agree bit for bit on the row's
// log-sum-exp and regulator. The including kernel declares `override WG: u32` (a power of two)
// and the storage array `logits` ([R, V]); x is the row's first element (r·V). Call from
// uniform control flow (the reductions have barriers).

//#include "reduce.wgsl"

// log Σ_j exp(z_j), with the row's max taken out first.
fn row_logsumexp(lid: u32, x: u32, V: u32, invTemp: f32) -> f32 {
  var m = -3.402823e38;
  for (var j = lid; j < V; j += WG) { m = max(m, logits[x + j] * invTemp); }
  m = wg_max(lid, m);
  var s = 0.0;
  for (var j = lid; j < V; j += WG) { s += exp(logits[x + j] * invTemp - m); }
  return m + log(wg_sum(lid, s));
}

// The row's regulator: −Σ_j p_j log p_j (nats, regulator 0) or (1/V)·Σ_j log p_j (regulator 1).
fn row_regulator(lid: u32, x: u32, V: u32, invTemp: f32, lse: f32, regulator: u32) -> f32 {
  var h = 0.0;
  for (var j = lid; j < V; j += WG) {
    let lp = logits[x + j] * invTemp - lse; // log p_j: finite even when p_j underflows
    if (regulator == 1u) { h += lp / f32(V); } else { h -= exp(lp) * lp; }
  }
  return wg_sum(lid, h);
}
