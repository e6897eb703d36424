// embedding_backward: dwte[v,:] += Σ_{(n,t): tokens[n,t]=v} dout[n,t,:];
//                     dwpe[t,:] += Σ_n dout[n,t,:]                         (+=)
// Deterministic without atomics: one thread owns each (v,c) of dwte and each (t,c) of dwpe
// and adds the positions in (n,t) order, starting from the old value (the CPU twin's order).
// Threads 0..V*C-1 do dwte, the next T*C do dwpe. Out-of-range tokens only reach dwpe.
// CPU twin: embeddingBackward in src/reference/ops.ts.

override WG: u32 = 64;

struct Params { N: u32, T: u32, C: u32, V: u32 }

@group(0) @binding(0) var<storage, read_write> dwte: array<f32>; // [V, C]
@group(0) @binding(1) var<storage, read_write> dwpe: array<f32>; // [Tmax, C], rows t < T touched
@group(0) @binding(2) var<storage, read> dout: array<f32>;       // [N*T, C]
@group(0) @binding(3) var<storage, read> tokens: array<i32>;     // [N, T]
@group(0) @binding(4) var<uniform> p: Params;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WG;
  let C = p.C;
  let nte = p.V * C;
  if (i < nte) {
    let v = i32(i / C);
    let c = i % C;
    var acc = dwte[i];
    for (var r = 0u; r < p.N * p.T; r++) {
      if (tokens[r] == v) { acc += dout[r * C + c]; }
    }
    dwte[i] = acc;
    return;
  }
  let j = i - nte;
  if (j >= p.T * C) { return; }
  let t = j / C;
  let c = j % C;
  var acc = dwpe[j];
  for (var n = 0u; n < p.N; n++) {
    acc += dout[(n * p.T + t) * C + c];
  }
  dwpe[j] = acc;
}
