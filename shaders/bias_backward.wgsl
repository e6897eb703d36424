// bias_backward: dbias[j] += Σ_r dout[r,j]  (column sums, +=)
// A column sum walks R rows (R = N·T, 2,048 in a training batch): one thread walking them all
// is a chain of R dependent loads, and OC threads leave a GPU idle. So the rows are cut into
// chunks of ROWS (a constant, so the summation order depends only on R):
//   partial  thread (j, z) sums rows z·ROWS … in order into part[z, j];
//   finish   thread j adds the chunk sums in order: dbias[j] += Σ_z part[z, j].
// No atomics: the same input gives the same bits.
// CPU twin: biasBackward in src/reference/ops.ts (in row order; equal up to rounding).

override WG: u32 = 64;
override ROWS: u32 = 64; // rows per chunk

struct Params { R: u32, OC: u32, Z: u32 } // Z = ⌈R / ROWS⌉ chunks

@group(0) @binding(0) var<storage, read_write> dbias: array<f32>; // [OC]
@group(0) @binding(1) var<storage, read> dout: array<f32>;        // [R, OC]
@group(0) @binding(2) var<storage, read_write> part: array<f32>;  // [Z, OC] scratch
@group(0) @binding(3) var<uniform> p: Params;

@compute @workgroup_size(WG)
fn partial(@builtin(global_invocation_id) gid: vec3u) {
  let j = gid.x;
  let z = gid.y;
  if (j >= p.OC || z >= p.Z) { return; }
  let end = min(p.R, (z + 1u) * ROWS);
  var s = 0.0;
  for (var r = z * ROWS; r < end; r++) { s += dout[r * p.OC + j]; }
  part[z * p.OC + j] = s;
}

@compute @workgroup_size(WG)
fn finish(@builtin(global_invocation_id) gid: vec3u) {
  let j = gid.x;
  if (j >= p.OC) { return; }
  var s = 0.0;
  for (var z = 0u; z < p.Z; z++) { s += part[z * p.OC + j]; }
  dbias[j] += s;
}
