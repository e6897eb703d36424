// "gelu_new", the tanh approximation: gelu(x) = 0.5·x·(1 + tanh u), u = sqrt(2/π)·(x + 0.044715x³).
// A library file (no entry point), pulled in with `//#include "gelu.wgsl"` by gelu_forward.wgsl,
// gelu_backward.wgsl and matmul.wgsl (its epilogues), so all use the same formulas.

const GELU_SCALE: f32 = 0.7978845608028654; // sqrt(2/π)
const GELU_CUBIC: f32 = 0.044715;

// u, clamped: tanh saturates to ±1 in f32 long before |u| = 15; clamping keeps backends that
// build tanh from exp from overflowing to NaN for large |x|.
fn gelu_u(x: f32) -> f32 {
  return clamp(GELU_SCALE * (x + GELU_CUBIC * x * x * x), -15.0, 15.0);
}

// gelu(x) = 0.5·x·(1 + tanh u)
fn gelu(x: f32) -> f32 {
  return 0.5 * x * (1.0 + tanh(gelu_u(x)));
}

// gelu'(x) = 0.5·(1 + tanh u) + 0.5·x·(1 − tanh²u)·sqrt(2/π)·(1 + 3·0.044715x²)
fn gelu_grad(x: f32) -> f32 {
  let th = tanh(gelu_u(x)); // u clamped where tanh is exactly ±1 in f32
  let du = GELU_SCALE * (1.0 + 3.0 * GELU_CUBIC * x * x);
  return 0.5 * (1.0 + th) + 0.5 * x * (1.0 - th * th) * du;
}
