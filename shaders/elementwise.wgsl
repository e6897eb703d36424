// The frame of an elementwise kernel: one thread per element i < p.n, dispatched as a 2-D grid
// (src/gpu/ops.ts, grid), so n may pass 65535 workgroups × WG. A library file, pulled in with
// `//#include "elementwise.wgsl"`: it holds the entry point `main`, which calls the including
// kernel's `fn element(i: u32)`; the kernel declares `var<uniform> p` with a field n.

override WG: u32 = 64;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WG;
  if (i >= p.n) { return; }
  element(i);
}
