// One thread per query row (n, h, t): the indexing shared by attention_forward and
// attention_backward's `scores` (and attention_forward_rows, a workgroup per row). A library
// file (no entry point), pulled in with `//#include "attention_rows.wgsl"`; the including kernel
// declares `override WG: u32`, `var<uniform> p: Params` and the storage array `qkv`
// ([N, T, 3C]). A row of qkv is [q | k | v], each C wide; head h uses channels h·hd..(h+1)·hd
// of each.

struct Params { N: u32, T: u32, C: u32, NH: u32 }

struct QueryRow {
  idx: u32,    // (n·NH + h)·T + t; idx ≥ N·NH·T: no row (the caller returns)
  t: u32,
  hd: u32,     // C / NH
  C3: u32,     // 3C, the width of a qkv row
  scale: f32,  // 1/sqrt(hd)
  att: u32,    // att[n,h,t,:] starts here (idx·T)
  out: u32,    // out[n,t,h·hd] (and dout's) starts here
  qkv0: u32,   // qkv[n,0,h·hd]: position s, part j (0 q, 1 k, 2 v) is at qkv0 + s·3C + j·C
}

fn query_row(gid: vec3u, nwg: vec3u) -> QueryRow {
  return query_row_at(gid.x + gid.y * nwg.x * WG);
}

// The row numbered idx (a workgroup per row: attention_forward_rows).
fn query_row_at(idx: u32) -> QueryRow {
  let T = p.T;
  let t = idx % T;
  let h = (idx / T) % p.NH;
  let n = idx / (T * p.NH);
  let hd = p.C / p.NH;
  let C3 = 3u * p.C;
  return QueryRow(idx, t, hd, C3, 1.0 / sqrt(f32(hd)), idx * T, (n * T + t) * p.C + h * hd, n * T * C3 + h * hd);
}

// q_t·k_s·scale for the row's query t and key s (d in order, as the CPU twin sums).
fn attention_score(row: QueryRow, s: u32) -> f32 {
  let q = row.qkv0 + row.t * row.C3;
  let k = row.qkv0 + s * row.C3 + p.C;
  var dot = 0.0;
  for (var d = 0u; d < row.hd; d++) { dot += qkv[q + d] * qkv[k + d]; }
  return dot * row.scale;
}
