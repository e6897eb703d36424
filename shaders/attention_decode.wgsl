// attention_decode (KV-cache decoding): the query at row pos = cursor[0] of the cache
// attends causally to the keys/values of rows 0..pos of the same buffer, scale 1/sqrt(hd).
//   out[n, h·hd+d] = Σ_{s≤pos} softmax_s(q_pos·k_s·scale)·v_s[d]   (=)
// A row of qkv is [q | k | v] as in attention_forward. One thread per output element
// (n, h, d); it recomputes its head's scores (max pass, then exp/sum/weighted-value pass)
// rather than storing them: decoding is one row per sequence, so the work is small and the
// kernel needs no scratch. CPU twin: attentionDecode in src/reference/decode.ts.

override WG: u32 = 64;

struct Params { N: u32, Tmax: u32, C: u32, NH: u32 }

@group(0) @binding(0) var<storage, read_write> out: array<f32>; // [N, C]
@group(0) @binding(1) var<storage, read> qkv: array<f32>;       // [N, Tmax, 3C] the cache
@group(0) @binding(2) var<storage, read> cursor: array<u32>;    // [≥1] cursor[0] = pos
@group(0) @binding(3) var<uniform> p: Params;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WG;
  let pos = cursor[0];
  let C = p.C;
  if (i >= p.N * C || pos >= p.Tmax) { return; }
  let n = i / C;
  let c = i % C;
  let hd = C / p.NH;
  let h = c / hd;
  let C3 = 3u * C;
  let scale = 1.0 / sqrt(f32(hd));
  let base = n * p.Tmax * C3;
  let q = base + pos * C3 + h * hd;

  var mx = -3.402823e38;
  for (var s = 0u; s <= pos; s++) {
    let k = base + s * C3 + C + h * hd;
    var dot = 0.0;
    for (var d = 0u; d < hd; d++) { dot += qkv[q + d] * qkv[k + d]; }
    mx = max(mx, dot * scale);
  }
  var sum = 0.0;
  var acc = 0.0;
  for (var s = 0u; s <= pos; s++) {
    let k = base + s * C3 + C + h * hd;
    var dot = 0.0;
    for (var d = 0u; d < hd; d++) { dot += qkv[q + d] * qkv[k + d]; }
    let e = exp(dot * scale - mx);
    sum += e;
    acc += e * qkv[base + s * C3 + 2u * C + c];
  }
  out[i] = acc / sum;
}
