// The frame of an elementwise kernel with two inputs: out[i] = binary(in0[i], in1[i]), i < n.
// A library file, pulled in with `//#include "elementwise_binary.wgsl"`: it declares the
// bindings (out, in0, in1, then the uniform n) and the `element` that elementwise.wgsl's entry
// point calls; the including kernel writes `fn binary(a: f32, b: f32) -> f32`, naming the
// inputs for itself (add, gelu_backward).

//#include "elementwise_binary.wgsl"`: it declares the bindings
// (out, in0, in1, then the uniform n) and the `element` that elementwise.wgsl's entry point calls;
// the including kernel writes `fn binary(a: f32, b: f32) -> f32`, naming the inputs for itself.

//#include "elementwise.wgsl"

struct Params { n: u32 }

@group(0) @binding(0) var<storage, read_write> out: array<f32>; // [n]
@group(0) @binding(1) var<storage, read> in0: array<f32>;        // [n]
@group(0) @binding(2) var<storage, read> in1: array<f32>;        // [n]
@group(0) @binding(3) var<uniform> p: Params;

fn element(i: u32) {
  out[i] = binary(in0[i], in1[i]);
}
