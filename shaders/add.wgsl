// add: out = a + b, elementwise (the residual connection's forward).
// CPU twin: add() in src/reference/ops.ts.

//#include "elementwise.wgsl"

struct Params { n: u32 }

@group(0) @binding(0) var<storage, read_write> out: array<f32>; // [n]
@group(0) @binding(1) var<storage, read> a: array<f32>;          // [n]
@group(0) @binding(2) var<storage, read> b: array<f32>;          // [n]
@group(0) @binding(3) var<uniform> p: Params;

fn element(i: u32) {
  out[i] = a[i] + b[i];
}
