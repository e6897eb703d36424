// attention_decode (KV-cache decoding): the query at row pos = cursor[0] of the cache
// attends causally to the keys/values of rows 0..pos of the same buffer, scale 1/sqrt(hd).
//   out[n, h·hd+d] = Σ_{s≤pos} softmax_s(q_pos·k_s·scale)·v_s[d]   (=)
// A row of qkv is [q | k | v] as in attention_forward. One workgroup per (n, h): its threads
// first compute the head's scores (a thread per cache row s, each a dot product over d in
// order) into workgroup memory, then a thread per output d takes the max, the exp-sum and the
// weighted sum of values over s in order. Each score is computed once, not once per output
// (hd times fewer dot products than a thread per output recomputing them), and every sum runs
// in the same order as the CPU twin's, so the result does not depend on WG.
// CPU twin: attentionDecode in src/reference/decode.ts.

override WG: u32 = 64;
override TMAX: u32 = 32; // the cache's rows (Tmax): the scores' workgroup array

struct Params { N: u32, Tmax: u32, C: u32, NH: u32 }

@group(0) @binding(0) var<storage, read_write> out: array<f32>; // [N, C]
@group(0) @binding(1) var<storage, read> qkv: array<f32>;       // [N, Tmax, 3C] the cache
@group(0) @binding(2) var<storage, read> cursor: array<u32>;    // [≥1] cursor[0] = pos
@group(0) @binding(3) var<uniform> p: Params;

var<workgroup> scores: array<f32, TMAX>; // [pos + 1] q·k_s·scale of this (n, h)

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  let g = wid.x + wid.y * nwg.x; // (n, h) = (g / NH, g % NH)
  let pos = cursor[0];
  // Uniform per workgroup, so the early return keeps the barrier below in uniform control flow.
  if (g >= p.N * p.NH || pos >= p.Tmax) { return; }
  let n = g / p.NH;
  let h = g % p.NH;
  let C = p.C;
  let hd = C / p.NH;
  let C3 = 3u * C;
  let scale = 1.0 / sqrt(f32(hd));
  let base = n * p.Tmax * C3;
  let q = base + pos * C3 + h * hd;

  for (var s = lid; s <= pos; s += WG) {
    let k = base + s * C3 + C + h * hd;
    var dot = 0.0;
    for (var d = 0u; d < hd; d++) { dot += qkv[q + d] * qkv[k + d]; }
    scores[s] = dot * scale;
  }
  workgroupBarrier();

  for (var d = lid; d < hd; d += WG) {
    var mx = -3.402823e38;
    for (var s = 0u; s <= pos; s++) { mx = max(mx, scores[s]); }
    var sum = 0.0;
    var acc = 0.0;
    let c = h * hd + d;
    for (var s = 0u; s <= pos; s++) {
      let e = exp(scores[s] - mx);
      sum += e;
      acc += e * qkv[base + s * C3 + 2u * C + c];
    }
    out[n * C + c] = acc / sum;
  }
}
