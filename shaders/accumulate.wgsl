// accumulate: dst += src, elementwise (the residual connection's backward: the gradient
// flows to both branches unchanged). CPU twin: accumulate in src/reference/ops.ts.

//#include "elementwise.wgsl"

struct Params { n: u32 }

@group(0) @binding(0) var<storage, read_write> dst: array<f32>; // [n]
@group(0) @binding(1) var<storage, read> src: array<f32>;       // [n]
@group(0) @binding(2) var<uniform> p: Params;

fn element(i: u32) {
  dst[i] += src[i];
}
