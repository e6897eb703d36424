// gelu_backward: dinp = gelu'(inp)·dout   (=)
// gelu'(x) = 0.5·(1 + tanh u) + 0.5·x·(1 − tanh²u)·sqrt(2/π)·(1 + 3·0.044715x²),
// u = sqrt(2/π)·(x + 0.044715x³) (gelu.wgsl). CPU twin: geluBackward in src/reference/ops.ts.

//#include "gelu.wgsl"
//#include "elementwise.wgsl"

struct Params { n: u32 }

@group(0) @binding(0) var<storage, read_write> dinp: array<f32>; // [n]
@group(0) @binding(1) var<storage, read> inp: array<f32>;        // [n]
@group(0) @binding(2) var<storage, read> dout: array<f32>;       // [n]
@group(0) @binding(3) var<uniform> p: Params;

fn element(i: u32) {
  dinp[i] = gelu_grad(inp[i]) * dout[i];
}
