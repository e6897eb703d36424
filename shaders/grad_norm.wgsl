// grad_norm: out[0] = sqrt(Σ g²); out[1] = 1 if any g is NaN or ±Inf, else 0.   (=)
// A fixed-order two-stage reduction (no atomics: the same input gives the same bits):
//   partial       G workgroups; workgroup g strides over the vector (element g·WG + lid, then
//                 + G·WG, …), reduces over the workgroup (row_reduce.wgsl: the shared-memory
//                 tree, or subgroups where the device has them) and writes partials[g] = (Σ g², flag);
//   partial_diff  the same over g = grads[i] − base[i] (diff_norm: how far an update moved the
//                 weights, grads holding the new weights and base the old ones);
//   finish        one workgroup reduces the G partials and writes out.
// G is fixed when the op is built (gradNormGroups, src/core/abi.ts), so the summation order
// depends only on P.
// CPU twins: gradNorm and diffNorm in src/reference/ops.ts.

//#include "row_reduce.wgsl"

override WG: u32 = 256; // power of two

struct Params { P: u32, G: u32 }

@group(0) @binding(0) var<storage, read_write> out: array<f32>;      // [2]
@group(0) @binding(1) var<storage, read> grads: array<f32>;          // [P]
@group(0) @binding(2) var<storage, read_write> partials: array<f32>; // [G, 2] scratch
@group(0) @binding(3) var<storage, read> base: array<f32>;           // [P] (partial_diff only)
@group(0) @binding(4) var<uniform> p: Params;

// Exponent all ones: ±Inf or NaN. A bit test, because fast-math may fold x != x away.
fn not_finite(x: f32) -> bool {
  return (bitcast<u32>(x) & 0x7f800000u) == 0x7f800000u;
}

// A thread's running share of a partial: Σ g² and whether any g was not finite.
struct SumSq { ss: f32, bad: f32 }

// acc with one more element g (the loop body of both partial entry points).
fn add_element(acc: SumSq, g: f32) -> SumSq {
  return SumSq(acc.ss + g * g, select(acc.bad, 1.0, not_finite(g)));
}

// The workgroup's share of the partials: Σ g² and the not-finite flag of its threads.
fn write_partial(g: u32, ids: ReduceIds, acc: SumSq) {
  let s = row_sum(ids, acc.ss);
  let b = row_max(ids, acc.bad);
  if (ids.lid == 0u) {
    partials[2u * g] = s;
    partials[2u * g + 1u] = b;
  }
}

// Workgroup g's elements, g·WG + lid strided by G·WG; the entry points differ only in what
// they read at each.
@compute @workgroup_size(WG)
fn partial(@builtin(workgroup_id) wid: vec3u, ids: ReduceIds) {
  var acc = SumSq(0.0, 0.0);
  for (var i = wid.x * WG + ids.lid; i < p.P; i += p.G * WG) { acc = add_element(acc, grads[i]); }
  write_partial(wid.x, ids, acc);
}

@compute @workgroup_size(WG)
fn partial_diff(@builtin(workgroup_id) wid: vec3u, ids: ReduceIds) {
  var acc = SumSq(0.0, 0.0);
  for (var i = wid.x * WG + ids.lid; i < p.P; i += p.G * WG) { acc = add_element(acc, grads[i] - base[i]); }
  write_partial(wid.x, ids, acc);
}

@compute @workgroup_size(WG)
fn finish(ids: ReduceIds) {
  let lid = ids.lid;
  var ss = 0.0;
  var bad = 0.0;
  for (var j = lid; j < p.G; j += WG) {
    ss += partials[2u * j];
    bad = max(bad, partials[2u * j + 1u]);
  }
  ss = row_sum(ids, ss);
  bad = row_max(ids, bad);
  if (lid == 0u) {
    out[0] = sqrt(ss);
    out[1] = bad;
  }
}
