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
    // job A: the tile at rows 4·ty of R, columns 4·tx of IC
    input_grad(4u * ((g / p.wxA) * WY + lid.y), 4u * ((g % p.wxA) * WX + lid.x));
  } else if (g < p.nA + p.nB) {
    // job B: chunk z of K = R, the tile at rows 4·ty of IC, columns 4·tx of OC
    let h = g - p.nA;
    let wyB = p.nB / (p.Z * p.wxB);
    let t = h % (wyB * p.wxB);
    weight_grad(4u * ((t / p.wxB) * WY + lid.y), 4u * ((t % p.wxB) * WX + lid.x), h / (wyB * p.wxB));
  } else {
    bias_grad((g - p.nA - p.nB) * WX * WY + li);
  }
}

// The four indices from i0, clamped below n: edge tiles read in bounds with no branch in the k
// loop, as in matmul's `tuned`; the clamped duplicates are not stored.
fn clamp4(i0: u32, n: u32) -> vec4u {
  return min(vec4u(i0) + vec4u(0u, 1u, 2u, 3u), vec4u(n - 1u));
}

// One k step of a 4×4 tile: row i += op(a)[m0 + i, k]·op(b)[k, n0..n0+3] (matmul's order).
fn step4(c: ptr<function, array<vec4f, 4>>, av: vec4f, bv: vec4f) {
  (*c)[0] += av.x * bv;
  (*c)[1] += av.y * bv;
  (*c)[2] += av.z * bv;
  (*c)[3] += av.w * bv;
}

// Job A's tile (op(a) = dout, op(b) = Wᵀ, k over OC). Each job has its own loop: a branch on the
// job inside it costs a software adapter both sides' loads.
fn input_grad(m0: u32, n0: u32) {
  if (m0 >= p.R || n0 >= p.IC) { return; }
  let ms = clamp4(m0, p.R) * p.OC;
  let ns = clamp4(n0, p.IC) * p.OC;
  var c = array<vec4f, 4>();
  for (var k = 0u; k < p.OC; k++) {
    let bv = vec4f(w[ns.x + k], w[ns.y + k], w[ns.z + k], w[ns.w + k]);
    step4(&c, vec4f(dout[ms.x + k], dout[ms.y + k], dout[ms.z + k], dout[ms.w + k]), bv);
  }
  store_tile(false, m0, n0, p.R, p.IC, 0u, c);
}

// Job B's tile, chunk z (op(a) = inpᵀ, op(b) = dout, k over the chunk's rows of R).
fn weight_grad(m0: u32, n0: u32, z: u32) {
  if (m0 >= p.IC || n0 >= p.OC) { return; }
  let ms = clamp4(m0, p.IC);
  let ns = clamp4(n0, p.OC);
  var c = array<vec4f, 4>();
  for (var k = z * p.KC; k < min(p.R, (z + 1u) * p.KC); k++) {
    let d = k * p.OC;
    let x = k * p.IC;
    step4(&c, vec4f(inp[x + ms.x], inp[x + ms.y], inp[x + ms.z], inp[x + ms.w]), vec4f(dout[d + ns.x], dout[d + ns.y], dout[d + ns.z], dout[d + ns.w]));
  }
  store_tile(true, m0, n0, p.IC, p.OC, z, c);
}

// Stores the in-range outputs of the tile at (m0, n0) of an M×N gradient.
fn store_tile(weight: bool, m0: u32, n0: u32, M: u32, N: u32, z: u32, c: array<vec4f, 4>) {
  for (var i = 0u; i < 4u && m0 + i < M; i++) {
    for (var j = 0u; j < 4u && n0 + j < N; j++) {
      let o = (m0 + i) * N + n0 + j;
      if (!weight) {
        if (GELU_BACKWARD) { dinp[o] = gelu_grad(pre[o]) * c[i][j]; } else { dinp[o] = c[i][j]; }
      } else if (p.Z == 1u) {
        dw[o] = dw[o] + c[i][j];
      } else {
        dw[z * M * N + o] = c[i][j]; // chunk z's sums
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
