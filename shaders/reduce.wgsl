// Workgroup reductions, for kernels that give a whole workgroup to one row.
// A library file (no entry point), pulled in with `//#include "reduce.wgsl"`. The including
// kernel declares `override WG: u32` (a power of two, its workgroup size) and calls these
// from uniform control flow. The tree has a fixed shape, so results are deterministic.

var<workgroup> red_buf: array<f32, WG>;

// Σ of x over the workgroup; every invocation gets the result.
fn wg_sum(lid: u32, x: f32) -> f32 {
  red_buf[lid] = x;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s >>= 1u) {
    if (lid < s) { red_buf[lid] += red_buf[lid + s]; }
    workgroupBarrier();
  }
  let r = red_buf[0];
  workgroupBarrier(); // everyone has read red_buf[0] before it is reused
  return r;
}

// max of x over the workgroup; every invocation gets the result.
fn wg_max(lid: u32, x: f32) -> f32 {
  red_buf[lid] = x;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s >>= 1u) {
    if (lid < s) { red_buf[lid] = max(red_buf[lid], red_buf[lid + s]); }
    workgroupBarrier();
  }
  let r = red_buf[0];
  workgroupBarrier();
  return r;
}
