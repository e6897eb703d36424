// ce_loss (SFT): loss = −scale·Σ mask·logp.   (=)
// dlogp = −scale·mask; seqLoss[n] = −scale·Σ_t mask·logp over sequence n.
// One thread per sequence. CPU twin: ceLoss in src/reference/ops.ts.

override WG: u32 = 64;

// word 0 is the per-step parameter (writeCeLossParams), the shape starts at word 4
struct Params { scale: f32, _pad0: u32, _pad1: u32, _pad2: u32, N: u32, T: u32 }

@group(0) @binding(0) var<storage, read_write> dlogp: array<f32>;   // [N*T]
@group(0) @binding(1) var<storage, read_write> seqLoss: array<f32>; // [N]
@group(0) @binding(2) var<storage, read> logp: array<f32>;          // [N*T]
@group(0) @binding(3) var<storage, read> mask: array<f32>;          // [N*T]
@group(0) @binding(4) var<uniform> p: Params;

@compute @workgroup_size(WG)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let n = gid.x;
  if (n >= p.N) { return; }
  var s = 0.0;
  for (var t = 0u; t < p.T; t++) {
    let i = n * p.T + t;
    s += mask[i] * logp[i];
    dlogp[i] = -p.scale * mask[i];
  }
  seqLoss[n] = -p.scale * s;
}
