// linear_backward: the whole backward of a linear layer out[R,OC] = inp[R,IC]·W[IC,OC] + b in
// one dispatch, three independent jobs over one flat grid of WX×WY workgroups:
//   A  input grad   dinp = dout·Wᵀ                 [R, IC]  (=), or dinp = gelu'(pre)·(dout·Wᵀ)
//                   with GELU_BACKWARD (the fc-projection's input grad, through gelu)
//   B  weight grad  dW  += inpᵀ·dout                [IC, OC] (Z = 1), or with Z > 1 the chunk
//                   sums part[z] (=) of K = R cut into chunks of KC; matmul_splitk's `finish`
//                   then adds them in order (a second dispatch)
//   C  bias grad    db  += Σ_r dout[r, ·]           [OC]
// Each job gives the bits of the kernel it replaces: A and B are matmul's `tuned` 4×4 register
// tiles (and matmul_splitk's `partial`), k summed in order from 0; C sums a column in chunks of
// ROWS rows, the chunk sums added in chunk order, as bias_backward does. Workgroups of one job
// never touch another's outputs, so no barrier is needed.
// CPU twin: linearBackward in src/reference/linear-backward.ts.

override GELU_BACKWARD: bool = false;
override WX: u32 = 8; // threads of a workgroup along a tile's columns
override WY: u32 = 8; // threads along its rows
override ROWS: u32 = 64; // job C: rows per chunk

struct Params {
  R: u32,
  IC: u32,
  OC: u32,
  Z: u32,   // job B: chunks of K = R (1 = not split)
  KC: u32,  // job B: rows per chunk
  ZC: u32,  // job C: ⌈R / ROWS⌉ chunks
  wxA: u32, // job A: workgroups along IC (its tiles are [wyA, wxA])
  nA: u32,  // job A: workgroups
  wxB: u32, // job B: workgroups along OC (its tiles are [Z, wyB, wxB])
  nB: u32,  // job B: workgroups
}

@group(0) @binding(0) var<storage, read_write> dinp: array<f32>; // [R, IC]
@group(0) @binding(1) var<storage, read_write> dw: array<f32>;   // [IC, OC] (+=), or [Z, IC, OC] chunk sums when Z > 1
@group(0) @binding(2) var<storage, read_write> db: array<f32>;   // [OC]
@group(0) @binding(3) var<storage, read> dout: array<f32>;       // [R, OC]
@group(0) @binding(4) var<storage, read> inp: array<f32>;        // [R, IC]
@group(0) @binding(5) var<storage, read> w: array<f32>;          // [IC, OC]
@group(0) @binding(6) var<storage, read> pre: array<f32>;        // [R, IC] gelu's input (a dummy without GELU_BACKWARD)
@group(0) @binding(7) var<uniform> p: Params;

//#include "gelu.wgsl"

@compute @workgroup_size(WX, WY)
fn main(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_id) lid: vec3u,
  @builtin(local_invocation_index) li: u32,
) {
  let g = wid.x + wid.y * nwg.x; // the flat workgroup index
  if (g < p.nA) {
    // job A: the tile at rows 4·ty of R, columns 4·tx of IC, all of K = OC
    let tx = (g % p.wxA) * WX + lid.x;
    let ty = (g / p.wxA) * WY + lid.y;
    grad_tile(false, 4u * ty, 4u * tx, p.R, p.IC, 0u, 0u, p.OC);
  } else if (g < p.nA + p.nB) {
    // job B: chunk z of K = R, the tile at rows 4·ty of IC, columns 4·tx of OC
    let h = g - p.nA;
    let wyB = p.nB / (p.Z * p.wxB);
    let t = h % (wyB * p.wxB);
    let z = h / (wyB * p.wxB);
    let tx = (t % p.wxB) * WX + lid.x;
    let ty = (t / p.wxB) * WY + lid.y;
    grad_tile(true, 4u * ty, 4u * tx, p.IC, p.OC, z, z * p.KC, min(p.R, (z + 1u) * p.KC));
  } else {
    bias_grad((g - p.nA - p.nB) * WX * WY + li);
  }
}

// op(a)[m, k]: dout for the input grad, inpᵀ for the weight grad.
fn a_el(weight: bool, m: u32, k: u32) -> f32 {
  if (weight) { return inp[k * p.IC + m]; }
  return dout[m * p.OC + k];
}

// op(b)[k, n]: Wᵀ for the input grad, dout for the weight grad.
fn b_el(weight: bool, k: u32, n: u32) -> f32 {
  if (weight) { return dout[k * p.OC + n]; }
  return w[n * p.OC + k];
}

// The 4×4 output tile at (m0, n0) of an M×N gradient, k from k0 to k1 in order, then stored.
// Edge tiles clamp their indices (no branch in the k loop), as in matmul's `tuned`; the clamped
// duplicates are not stored.
fn grad_tile(weight: bool, m0: u32, n0: u32, M: u32, N: u32, z: u32, k0: u32, k1: u32) {
  if (m0 >= M || n0 >= N) { return; }
  let ms = min(vec4u(m0) + vec4u(0u, 1u, 2u, 3u), vec4u(M - 1u));
  let ns = min(vec4u(n0) + vec4u(0u, 1u, 2u, 3u), vec4u(N - 1u));
  var c0 = vec4f(0.0);
  var c1 = vec4f(0.0);
  var c2 = vec4f(0.0);
  var c3 = vec4f(0.0);
  for (var k = k0; k < k1; k++) {
    let bv = vec4f(b_el(weight, k, ns.x), b_el(weight, k, ns.y), b_el(weight, k, ns.z), b_el(weight, k, ns.w));
    c0 += a_el(weight, ms.x, k) * bv;
    c1 += a_el(weight, ms.y, k) * bv;
    c2 += a_el(weight, ms.z, k) * bv;
    c3 += a_el(weight, ms.w, k) * bv;
  }
  let rows = array<vec4f, 4>(c0, c1, c2, c3);
  for (var i = 0u; i < 4u && m0 + i < M; i++) {
    for (var j = 0u; j < 4u && n0 + j < N; j++) {
      let o = (m0 + i) * N + n0 + j;
      if (!weight) {
        if (GELU_BACKWARD) { dinp[o] = gelu_grad(pre[o]) * rows[i][j]; } else { dinp[o] = rows[i][j]; }
      } else if (p.Z == 1u) {
        dw[o] = dw[o] + rows[i][j];
      } else {
        dw[z * M * N + o] = rows[i][j]; // chunk z's sums
      }
    }
  }
}

// Job C: column j's sum, chunk by chunk: db[j] += ((0 + s_0) + s_1) + … (bias_backward's order).
fn bias_grad(j: u32) {
  if (j >= p.OC) { return; }
  var acc = 0.0;
  for (var z = 0u; z < p.ZC; z++) {
    var s = 0.0;
    let end = min(p.R, (z + 1u) * ROWS);
    for (var r = z * ROWS; r < end; r++) { s += dout[r * p.OC + j]; }
    acc += s;
  }
  db[j] += acc;
}
