// gelu_forward: out = 0.5·x·(1 + tanh(sqrt(2/π)·(x + 0.044715x³)))   (=)
// ("gelu_new", the tanh approximation: gelu.wgsl). CPU twin: geluForward in src/reference/ops.ts.

//#include "gelu.wgsl"
//#include "elementwise.wgsl"

struct Params { n: u32 }

@group(0) @binding(0) var<storage, read_write> out: array<f32>; // [n]
@group(0) @binding(1) var<storage, read> inp: array<f32>;       // [n]
@group(0) @binding(2) var<uniform> p: Params;

fn element(i: u32) {
  out[i] = gelu(inp[i]);
}
