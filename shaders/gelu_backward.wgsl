// gelu_backward: dinp = gelu'(inp)·dout   (=)
// gelu'(x) = 0.5·(1 + tanh u) + 0.5·x·(1 − tanh²u)·sqrt(2/π)·(1 + 3·0.044715x²),
// u = sqrt(2/π)·(x + 0.044715x³) (gelu.wgsl). CPU twin: geluBackward in src/reference/ops.ts.

//#include "gelu.wgsl"
//#include "elementwise_binary.wgsl"

// out = dinp, in0 = inp, in1 = dout
fn binary(inp: f32, dout: f32) -> f32 {
  return gelu_grad(inp) * dout;
}
