// bias_backward: dbias[j] += Σ_r dout[r,j]  (column sums, +=), in one dispatch.
// A column sum walks R rows (R = N·T, 2,048 in a training batch): one thread walking them all
// is a chain of R dependent loads, and OC threads leave a GPU idle. So the rows are cut into
// chunks of ROWS (a constant, so the summation order depends only on R). A workgroup takes CW
// columns with ZL threads each: thread (x, y) sums chunks y, y + ZL, … of its column in row
// order, a round of ZL chunks at a time, into workgroup memory, and thread (x, 0) adds each
// round's chunk sums in chunk order: dbias[j] += ((0 + s_0) + s_1) + … .
// No atomics: the same input gives the same bits.
// CPU twin: biasBackward in src/reference/ops.ts (in row order; equal up to rounding).

override CW: u32 = 8; // columns of a workgroup
override ZL: u32 = 8; // chunks summed at once per column
override ROWS: u32 = 64; // rows per chunk

struct Params { R: u32, OC: u32, Z: u32 } // Z = ⌈R / ROWS⌉ chunks

@group(0) @binding(0) var<storage, read_write> dbias: array<f32>; // [OC]
@group(0) @binding(1) var<storage, read> dout: array<f32>;        // [R, OC]
@group(0) @binding(2) var<uniform> p: Params;

var<workgroup> part: array<f32, CW * ZL>; // [ZL, CW] chunk sums of a round

@compute @workgroup_size(CW, ZL)
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_id) lid: vec3u) {
  let j = wid.x * CW + lid.x;
  let jr = min(j, p.OC - 1u); // an edge column past OC reads its neighbour's and stores nothing
  var acc = 0.0;
  for (var z0 = 0u; z0 < p.Z; z0 += ZL) {
    let z = z0 + lid.y;
    var s = 0.0;
    if (z < p.Z) {
      let end = min(p.R, (z + 1u) * ROWS);
      for (var r = z * ROWS; r < end; r++) { s += dout[r * p.OC + jr]; }
    }
    part[lid.y * CW + lid.x] = s;
    workgroupBarrier();
    if (lid.y == 0u) {
      let n = min(ZL, p.Z - z0);
      for (var k = 0u; k < n; k++) { acc += part[k * CW + lid.x]; }
    }
    workgroupBarrier();
  }
  if (lid.y == 0u && j < p.OC) { dbias[j] += acc; }
}
