// add: out = a + b, elementwise (the residual connection's forward).
// CPU twin: add() in src/reference/ops.ts.

//#include "elementwise_binary.wgsl"

fn binary(a: f32, b: f32) -> f32 {
  return a + b;
}
