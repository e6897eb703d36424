// One thread per query row (n, h, t): the indexing shared by attention_forward and
// attention_backward's `scores`. A library file (no entry point), pulled in with
// `//#include "attention_rows.wgsl"`; the including kernel declares `override WG: u32` and
// `var<uniform> p: Params`. A row of qkv is [q | k | v], each C wide; head h uses channels
// h·hd..(h+1)·hd of each.

struct Params { N: u32, T: u32, C: u32, NH: u32 }

struct QueryRow {
  idx: u32,    // (n·NH + h)·T + t; the row att[n,h,t,:] starts at idx·T
  n: u32,
  h: u32,
  t: u32,
  hd: u32,     // C / NH
  C3: u32,     // 3C, the width of a qkv row
  scale: f32,  // 1/sqrt(hd)
}

// The row of this thread; idx ≥ N·NH·T means no row (the caller returns).
fn query_row(gid: vec3u, nwg: vec3u) -> QueryRow {
  let idx = gid.x + gid.y * nwg.x * WG;
  let T = p.T;
  let hd = p.C / p.NH;
  return QueryRow(idx, idx / (T * p.NH), (idx / T) % p.NH, idx % T, hd, 3u * p.C, 1.0 / sqrt(f32(hd)));
}
