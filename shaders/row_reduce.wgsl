// Workgroup reductions behind one interface, in two variants picked when the pipeline is built
// (src/gpu/pipelines.ts; docs/engine.md, "Device features"). A library file (no entry point),
// pulled in with `//#include "row_reduce.wgsl"`; on a device with subgroups the include reads
// row_reduce_subgroups.wgsl instead. The including kernel declares `override WG: u32` (a power of
// two, its workgroup size), takes `ids: ReduceIds` as an entry-point parameter (its
// local_invocation_index is ids.lid) and calls these from uniform control flow.
// This plain variant is the shared-memory tree of reduce.wgsl, bit for bit.

//#include "reduce.wgsl"

struct ReduceIds {
  @builtin(local_invocation_index) lid: u32,
}

// Σ of x over the workgroup; every invocation gets the result.
fn row_sum(ids: ReduceIds, x: f32) -> f32 {
  return wg_sum(ids.lid, x);
}

// max of x over the workgroup; every invocation gets the result.
fn row_max(ids: ReduceIds, x: f32) -> f32 {
  return wg_max(ids.lid, x);
}
