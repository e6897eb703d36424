// "gelu_new", the tanh approximation: gelu(x) = 0.5·x·(1 + tanh u), u = sqrt(2/π)·(x + 0.044715x³).
// A library file (no entry point), pulled in with `//#include "gelu.wgsl"` by gelu_forward.wgsl
// and gelu_backward.wgsl, so the two use the same constants and the same u.

const GELU_SCALE: f32 = 0.7978845608028654; // sqrt(2/π)
const GELU_CUBIC: f32 = 0.044715;

// u, clamped: tanh saturates to ±1 in f32 long before |u| = 15; clamping keeps backends that
// build tanh from exp from overflowing to NaN for large |x|.
fn gelu_u(x: f32) -> f32 {
  return clamp(GELU_SCALE * (x + GELU_CUBIC * x * x * x), -15.0, 15.0);
}
