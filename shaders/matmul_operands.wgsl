// The operands of a matmul, read through their stored layout. A library file (no entry point),
// pulled in with `//#include "matmul_operands.wgsl"` by matmul.wgsl and matmul_splitk.wgsl. The
// including kernel declares `override TRANS_A, TRANS_B: bool`, the storage arrays `a` and `b`,
// and a uniform `p` with fields M, K, N.

// op(a)[m, k]: a is [M, K], or [K, M] when TRANS_A.
fn a_at(m: u32, k: u32) -> f32 {
  if (TRANS_A) { return a[k * p.M + m]; }
  return a[m * p.K + k];
}

// op(b)[k, n]: b is [K, N], or [N, K] when TRANS_B.
fn b_at(k: u32, n: u32) -> f32 {
  if (TRANS_B) { return b[n * p.K + k]; }
  return b[k * p.N + n];
}
