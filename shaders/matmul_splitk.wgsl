// matmul_splitk: out = op(a)·op(b)   (=, or += when ACCUM); no bias
// For a long reduction into a small output: the weight gradient dW += inpᵀ·dout sums over the
// R = N·T rows of a batch (K = 2,048 in the benchmarks) into an IC×OC matrix. One thread per
// 4×4 output tile walking all of K leaves a GPU with few, long threads; here K is cut into Z
// chunks of KC (KC fixed by the op, so the order of the sums depends only on the shape):
//   partial  thread (tile, z) sums its k chunk in order into part[z] (a 4×4 register tile, as
//            matmul's `tuned`);
//   finish   a thread per output adds the Z chunk sums in order, then stores (= or +=).
// CPU twin: matmul in src/reference/ops.ts (k in one run; equal up to rounding).

override TRANS_A: bool = false;
override TRANS_B: bool = false;
override ACCUM: bool = false;
override WX: u32 = 8; // partial: workgroup size along n
override WY: u32 = 8; // partial: workgroup size along m
override WG: u32 = 64; // finish: workgroup size

struct Params { M: u32, K: u32, N: u32, Z: u32, KC: u32 }

@group(0) @binding(0) var<storage, read_write> out: array<f32>;  // [M, N]
@group(0) @binding(1) var<storage, read> a: array<f32>;          // [M, K], or [K, M] if TRANS_A
@group(0) @binding(2) var<storage, read> b: array<f32>;          // [K, N], or [N, K] if TRANS_B
@group(0) @binding(3) var<storage, read_write> part: array<f32>; // [Z, M, N] scratch
@group(0) @binding(4) var<uniform> p: Params;

//#include "matmul_operands.wgsl"

@compute @workgroup_size(WX, WY)
fn partial(@builtin(global_invocation_id) gid: vec3u, @builtin(workgroup_id) wid: vec3u) {
  let n0 = gid.x * 4u;
  let m0 = gid.y * 4u;
  let z = wid.z;
  if (m0 >= p.M || n0 >= p.N || z >= p.Z) { return; }
  // Edge tiles clamp their indices, as in matmul's `tuned`; clamped results are not stored.
  let ms = min(vec4u(m0) + vec4u(0u, 1u, 2u, 3u), vec4u(p.M - 1u));
  let ns = min(vec4u(n0) + vec4u(0u, 1u, 2u, 3u), vec4u(p.N - 1u));
  var c0 = vec4f(0.0);
  var c1 = vec4f(0.0);
  var c2 = vec4f(0.0);
  var c3 = vec4f(0.0);
  let k1 = min(p.K, (z + 1u) * p.KC);
  for (var k = z * p.KC; k < k1; k++) {
    let bv = vec4f(b_at(k, ns.x), b_at(k, ns.y), b_at(k, ns.z), b_at(k, ns.w));
    c0 += a_at(ms.x, k) * bv;
    c1 += a_at(ms.y, k) * bv;
    c2 += a_at(ms.z, k) * bv;
    c3 += a_at(ms.w, k) * bv;
  }
  let rows = array<vec4f, 4>(c0, c1, c2, c3);
  let base = z * p.M * p.N;
  for (var i = 0u; i < 4u; i++) {
    let m = m0 + i;
    if (m >= p.M) { break; }
    for (var j = 0u; j < 4u; j++) {
      if (n0 + j < p.N) { part[base + m * p.N + n0 + j] = rows[i][j]; }
    }
  }
}

@compute @workgroup_size(WG)
fn finish(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WG;
  let MN = p.M * p.N;
  if (i >= MN) { return; }
  var s = 0.0;
  for (var z = 0u; z < p.Z; z++) { s += part[z * MN + i]; }
  if (ACCUM) { out[i] = out[i] + s; } else { out[i] = s; }
}
