// adamw: AdamW with decoupled weight decay and global grad-norm clipping, in place, over
// the one parameter buffer in one dispatch (docs/architecture.md, "Conventions"). If norm[1] ≠ 0 (a non-finite
// gradient, from grad_norm) nothing changes: params, m and v are kept.
//   scale = maxGradNorm > 0 ? min(1, maxGradNorm/(norm[0] + 1e-6)) : 1;  g = scale·grad
//   m = β1·m + (1−β1)·g;  v = β2·v + (1−β2)·g²
//   p −= lr·((m/bc1)/(sqrt(v/bc2) + eps) + weightDecay·decay·p),  bc = 1 − β^step
// CPU twin: adamw in src/reference/ops.ts.

override WG: u32 = 256;

// Words 0..11 change every step (writeAdamwParams in src/gpu/ops.ts computes bc1, bc2 in
// double precision from step); P comes after them.
struct Params {
  lr: f32,
  beta1: f32,
  beta2: f32,
  eps: f32,
  weightDecay: f32,
  maxGradNorm: f32,
  bc1: f32, // 1 − beta1^step
  bc2: f32, // 1 − beta2^step
  step: u32,
  _pad0: u32,
  _pad1: u32,
  _pad2: u32,
  P: u32,
}

@group(0) @binding(0) var<storage, read_write> params: array<f32>; // [P]
@group(0) @binding(1) var<storage, read> grads: array<f32>;        // [P]
@group(0) @binding(2) var<storage, read_write> m: array<f32>;      // [P] first moment
@group(0) @binding(3) var<storage, read_write> v: array<f32>;      // [P] second moment
@group(0) @binding(4) var<storage, read> decay: array<f32>;        // [P] 1 = weight decay applies
@group(0) @binding(5) var<storage, read> norm: array<f32>;         // [2] from grad_norm
@group(0) @binding(6) var<uniform> p: Params;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WG;
  if (i >= p.P || norm[1] != 0.0) { return; }
  var scale = 1.0;
  if (p.maxGradNorm > 0.0) { scale = min(1.0, p.maxGradNorm / (norm[0] + 1e-6)); }
  let g = scale * grads[i];
  let mi = p.beta1 * m[i] + (1.0 - p.beta1) * g;
  let vi = p.beta2 * v[i] + (1.0 - p.beta2) * g * g;
  m[i] = mi;
  v[i] = vi;
  let x = params[i];
  params[i] = x - p.lr * ((mi / p.bc1) / (sqrt(vi / p.bc2) + p.eps) + p.weightDecay * decay[i] * x);
}
