// The subgroups variant of row_reduce.wgsl (same interface; read its header). Each subgroup
// reduces in registers (subgroupAdd / subgroupMax), lane 0 of each writes its subgroup's result
// to shared memory at the subgroup's id, and after one barrier every invocation combines the
// num_subgroups results in index order. Correct for any subgroup size the adapter picks
// (1 ≤ size, num_subgroups ≤ WG, which is what the WG-long buffer holds), and for any layout of
// invocations into subgroups, since only subgroup_id places a result. Deterministic on one
// adapter; the bits differ from the tree's (another summation order).

enable subgroups;

struct ReduceIds {
  @builtin(local_invocation_index) lid: u32,
  @builtin(subgroup_invocation_id) lane: u32,
  @builtin(subgroup_id) sg: u32,
  @builtin(num_subgroups) nsg: u32,
}

var<workgroup> sg_buf: array<f32, WG>;

// Σ of x over the workgroup; every invocation gets the result.
fn row_sum(ids: ReduceIds, x: f32) -> f32 {
  let s = subgroupAdd(x);
  if (ids.lane == 0u) { sg_buf[ids.sg] = s; }
  workgroupBarrier();
  var r = 0.0;
  for (var i = 0u; i < ids.nsg; i++) { r += sg_buf[i]; }
  workgroupBarrier(); // everyone has read sg_buf before it is reused
  return r;
}

// max of x over the workgroup; every invocation gets the result.
fn row_max(ids: ReduceIds, x: f32) -> f32 {
  let m = subgroupMax(x);
  if (ids.lane == 0u) { sg_buf[ids.sg] = m; }
  workgroupBarrier();
  var r = sg_buf[0];
  for (var i = 1u; i < ids.nsg; i++) { r = max(r, sg_buf[i]); }
  workgroupBarrier();
  return r;
}
