// embedding_decode (KV-cache decoding, one new position for all N sequences):
//   out[n,:] = wte[tokens[n,pos],:] + wpe[pos,:]   (=), pos = cursor[0]
// A token id outside [0,V) reads a zero wte row, as in embedding_forward. pos comes from a
// storage buffer so that a whole decoding loop can be recorded once (see sample_token).
// One thread per output element. CPU twin: embeddingDecode in src/reference/decode.ts.

override WG: u32 = 64;

struct Params { N: u32, Tmax: u32, C: u32, V: u32 }

@group(0) @binding(0) var<storage, read_write> out: array<f32>; // [N, C]
@group(0) @binding(1) var<storage, read> tokens: array<i32>;    // [N, Tmax]
@group(0) @binding(2) var<storage, read> wte: array<f32>;       // [V, C]
@group(0) @binding(3) var<storage, read> wpe: array<f32>;       // [Tmax, C]
@group(0) @binding(4) var<storage, read> cursor: array<u32>;    // [≥1] cursor[0] = pos
@group(0) @binding(5) var<uniform> p: Params;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WG;
  let pos = cursor[0];
  if (i >= p.N * p.C || pos >= p.Tmax) { return; }
  let n = i / p.C;
  let c = i % p.C;
  let tok = tokens[n * p.Tmax + pos];
  var e = 0.0;
  if (tok >= 0 && u32(tok) < p.V) { e = wte[u32(tok) * p.C + c]; }
  out[i] = e + wpe[pos * p.C + c];
}
