// embedding_forward: out[n,t,:] = wte[tokens[n,t],:] + wpe[t,:]   (=)
// A token id outside [0,V) reads a zero wte row (e.g. −1 for "not sampled yet").
// One thread per output element. CPU twin: embeddingForward in src/reference/ops.ts.

override WG: u32 = 64;

struct Params { N: u32, T: u32, C: u32, V: u32 }

@group(0) @binding(0) var<storage, read_write> out: array<f32>; // [N*T, C]
@group(0) @binding(1) var<storage, read> tokens: array<i32>;    // [N, T]
@group(0) @binding(2) var<storage, read> wte: array<f32>;       // [V, C]
@group(0) @binding(3) var<storage, read> wpe: array<f32>;       // [Tmax, C], rows t < T used
@group(0) @binding(4) var<uniform> p: Params;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WG;
  if (i >= p.N * p.T * p.C) { return; }
  let r = i / p.C;
  let c = i % p.C;
  let t = r % p.T;
  let tok = tokens[r];
  var e = 0.0;
  if (tok >= 0 && u32(tok) < p.V) { e = wte[u32(tok) * p.C + c]; }
  out[i] = e + wpe[t * p.C + c];
}
