// The subgroup reductions (shaders/row_reduce_subgroups.wgsl) against the shared-memory tree
// (row_reduce.wgsl) and the CPU twins, both on the same adapter: one device opened with
// subgroups ('auto') and one with them forced off. The subgroup half is *skipped with its
// reason* where the adapter (or its WGSL) has no subgroups, never passed; with
// RLVR_REQUIRE_SUBGROUPS=1 it fails instead. Kernels: logits_stats and logits_backward (row max,
// log-sum-exp, entropy; V from 2, below one subgroup, to above one workgroup), grad_norm
// (workgroup sizes 1 to 256, so subgroups partly filled, one per workgroup and many) and
// attention_forward's workgroup-per-row kernel (row max and Σ exp; layout 'rows', in both
// variants) against the CPU twin and the thread-per-row kernel.
import { afterAll, describe, expect, it, type TestContext } from 'vitest';
import { openNodeDevice } from './node-device';
import { FeatureMissingError, openDevice, type GpuContext } from './device';
import { kernelVariant } from './pipelines';
import { shaderSource } from './shaders';
import { runDispatches } from './dispatch';
import { createStorage, readF32, storageFrom } from './buffers';
import { attentionForwardOp, gradNormOp, logitsBackwardOp, logitsStatsOp, type AttentionLayout } from './ops';
import { expectClose, maxAbsDiff, randn32 } from './testing';
import { attentionForward, gradNorm, logitsBackward, logitsStats } from '../reference/ops';
import { makeRng } from '../core/random';
import { REGULATOR, type LogitsShape } from '../core/abi';

type Pair = { sub: GpuContext; plain: GpuContext };
let pair: Promise<Pair | string> | null = null;

function devices(): Promise<Pair | string> {
  pair ??= (async () => {
    const sub = await openNodeDevice({ verbose: false, subgroups: 'auto' });
    const plain = await openNodeDevice({ verbose: false, subgroups: 'off' });
    return { sub, plain };
  })().catch((e: unknown) => (e instanceof Error ? e.message : String(e)));
  return pair;
}

afterAll(async () => {
  const p = await pair;
  if (p && typeof p !== 'string') for (const c of [p.sub, p.plain]) c.device.destroy();
});

/** Runs `fn` with both devices; the subgroup half (`needsSubgroups`) is skipped, with the reason, where there are none. */
function pairIt(name: string, needsSubgroups: boolean, fn: (p: Pair) => Promise<void>): void {
  it(
    name,
    async (t: TestContext) => {
      const p = await devices();
      if (typeof p === 'string') {
        if (process.env.CI === 'true') throw new Error(`GPU test cannot run under CI=true: no WebGPU adapter (${p})`);
        t.skip(`no WebGPU adapter: ${p}`);
        return;
      }
      if (needsSubgroups && !p.sub.features.subgroups) {
        const why = `SUBGROUP PATH NOT TESTED: this adapter has no usable 'subgroups' (${p.sub.features.notes.join('; ') || 'not offered'})`;
        if (process.env.RLVR_REQUIRE_SUBGROUPS === '1') throw new Error(why);
        console.warn(why);
        t.skip(why);
        return;
      }
      await fn(p);
    },
    60_000,
  );
}

interface LogitsOut {
  logp: Float32Array;
  ent: Float32Array;
  dlogits: Float32Array;
}

async function logitsOnDevice(
  device: GPUDevice,
  x: { logits: Float32Array; targets: Int32Array; dlogp: Float32Array; dent: Float32Array },
  shape: LogitsShape,
): Promise<LogitsOut> {
  const { R, V } = shape;
  const logp = createStorage(device, R * 4),
    ent = createStorage(device, R * 4),
    dlogits = createStorage(device, R * V * 4);
  const logitsB = storageFrom(device, x.logits),
    targetsB = storageFrom(device, x.targets);
  const [dlogpB, dentB] = [storageFrom(device, x.dlogp), storageFrom(device, x.dent)];
  await runDispatches(device, [
    ...logitsStatsOp(device, logp, ent, logitsB, targetsB, shape),
    ...logitsBackwardOp(device, dlogits, logitsB, targetsB, dlogpB, dentB, shape),
  ]);
  return {
    logp: await readF32(device, logp, R),
    ent: await readF32(device, ent, R),
    dlogits: await readF32(device, dlogits, R * V),
  };
}

const LOGITS_CASES = [
  [9, 2, REGULATOR.entropy], // WG 2: half a subgroup of 4
  [9, 3, REGULATOR.uniform],
  [7, 11, REGULATOR.entropy],
  [6, 150, REGULATOR.entropy], // WG 64, several strides
  [6, 150, REGULATOR.uniform],
] as const;

/** logits_stats + logits_backward on `ctx` against the CPU twin; returns the device's outputs per case. */
async function logitsAgainstTwin(ctx: GpuContext, label: string): Promise<LogitsOut[]> {
  const outs: LogitsOut[] = [];
  for (const [R, V, reg] of LOGITS_CASES) {
    const r = makeRng(40 + V + reg);
    const shape = { R, V, invTemp: 1 / 0.7, regulator: reg };
    const x = {
      logits: randn32(r, R * V, 3),
      targets: Int32Array.from({ length: R }, (_, i) => (i === 1 ? -1 : r.int(V))),
      dlogp: randn32(r, R),
      dent: randn32(r, R),
    };
    const got = await logitsOnDevice(ctx.device, x, shape);
    const [eLogp, eEnt, eD] = [new Float64Array(R), new Float64Array(R), new Float64Array(R * V)];
    logitsStats(eLogp, eEnt, x.logits, x.targets, shape);
    logitsBackward(eD, x.logits, x.targets, x.dlogp, x.dent, shape);
    const name = `${label} (R=${R} V=${V} regulator ${reg})`;
    expectClose(`logits_stats logp ${name}`, got.logp, eLogp, 1e-5);
    expectClose(`logits_stats entropy ${name}`, got.ent, eEnt, 1e-5);
    expectClose(`logits_backward ${name}`, got.dlogits, eD, 1e-5);
    outs.push(got);
  }
  return outs;
}

const NORM_CASES = [
  { P: 1000, workgroupSize: 1, groups: 7 },
  { P: 1000, workgroupSize: 2, groups: 5 },
  { P: 5000, workgroupSize: 4, groups: 16 },
  { P: 5000, workgroupSize: 64, groups: 16 },
  { P: 70001 }, // the default: 256 × 256
];

/** grad_norm on `ctx` against the CPU twin, and its not-finite flag; returns the norms. */
async function normAgainstTwin(ctx: GpuContext, label: string): Promise<number[]> {
  const { device } = ctx;
  const norms: number[] = [];
  for (const c of NORM_CASES) {
    const g = randn32(makeRng(c.P + (c.workgroupSize ?? 0)), c.P, 0.01);
    const gBuf = storageFrom(device, g),
      out = createStorage(device, 8);
    const op = gradNormOp(
      device,
      out,
      gBuf,
      c.P,
      c.workgroupSize ? { workgroupSize: c.workgroupSize, groups: c.groups! } : undefined,
    );
    await runDispatches(device, op);
    const e = new Float64Array(2);
    gradNorm(e, g, c.P);
    const got = await readF32(device, out, 2);
    expectClose(`grad_norm ${label} (P=${c.P} WG=${c.workgroupSize ?? 'default'})`, got, e, 1e-6);
    norms.push(got[0]);
    device.queue.writeBuffer(gBuf, (c.P - 2) * 4, Float32Array.of(NaN));
    await runDispatches(device, op);
    expect((await readF32(device, out, 2))[1], `${label} NaN flag`).toBe(1);
  }
  return norms;
}

const ATTENTION_CASES = [
  [2, 3, 8, 2], // WG 4, hd 4
  [3, 5, 12, 2],
  [2, 7, 12, 3],
  [1, 70, 16, 2], // WG 64: lanes stride over the keys
] as const;

/** attention_forward in `layout` on `ctx` against the CPU twin; returns [out, att] per case. */
async function attentionAgainstTwin(
  ctx: GpuContext,
  layout: AttentionLayout,
  label: string,
): Promise<Float32Array[][]> {
  const { device } = ctx;
  const outs: Float32Array[][] = [];
  for (const [N, T, C, NH] of ATTENTION_CASES) {
    const qkv = randn32(makeRng(T + C), N * T * 3 * C);
    const out = createStorage(device, N * T * C * 4),
      att = storageFrom(device, new Float32Array(N * NH * T * T).fill(NaN)); // (=): every element written
    await runDispatches(
      device,
      attentionForwardOp(device, out, att, storageFrom(device, qkv), { N, T, C, NH }, layout),
    );
    const [eOut, eAtt] = [new Float64Array(N * T * C), new Float64Array(N * NH * T * T)];
    attentionForward(eOut, eAtt, qkv, { N, T, C, NH });
    const got = [await readF32(device, out, N * T * C), await readF32(device, att, N * NH * T * T)];
    const name = `${label} (N=${N} T=${T} C=${C} NH=${NH})`;
    expectClose(`attention_forward out ${name}`, got[0], eOut, 1e-5);
    expectClose(`attention_forward att ${name}`, got[1], eAtt, 1e-5);
    outs.push(got);
  }
  return outs;
}

describe('subgroup reductions vs the shared-memory tree and the CPU twins (one adapter, two devices)', () => {
  pairIt('the forced-off device builds the tree variant', false, async ({ plain }) => {
    expect(plain.features.subgroups).toBe(false);
    for (const k of ['logits_stats', 'logits_backward', 'grad_norm', 'attention_forward_rows'])
      expect(kernelVariant(plain.device, k)).toBe('plain');
    await logitsAgainstTwin(plain, 'tree');
    await normAgainstTwin(plain, 'tree');
    await attentionAgainstTwin(plain, 'threads', 'a thread per row');
    await attentionAgainstTwin(plain, 'rows', 'a workgroup per row, tree');
  });

  pairIt('the subgroups device builds the subgroups variant where a kernel has one', true, async ({ sub }) => {
    console.log(`subgroup sizes of this adapter: ${JSON.stringify(sub.features.subgroupSizes)}`);
    for (const k of ['logits_stats', 'logits_backward', 'grad_norm', 'attention_forward_rows'])
      expect(kernelVariant(sub.device, k)).toBe('subgroups');
    expect(kernelVariant(sub.device, 'adamw')).toBe('plain');
  });

  pairIt('logits_stats / logits_backward: subgroups vs CPU twin and vs the tree', true, async ({ sub, plain }) => {
    const a = await logitsAgainstTwin(sub, 'subgroups');
    const b = await logitsAgainstTwin(plain, 'tree');
    let d = 0;
    for (let i = 0; i < a.length; i++)
      d = Math.max(
        d,
        maxAbsDiff(a[i].logp, b[i].logp),
        maxAbsDiff(a[i].ent, b[i].ent),
        maxAbsDiff(a[i].dlogits, b[i].dlogits),
      );
    console.log(`logits: subgroups vs tree, max abs diff ${d.toExponential(2)}`);
    expect(d).toBeLessThanOrEqual(1e-5);
  });

  pairIt('grad_norm: subgroups vs CPU twin and vs the tree (workgroups of 1 to 256)', true, async ({ sub, plain }) => {
    const a = await normAgainstTwin(sub, 'subgroups');
    const b = await normAgainstTwin(plain, 'tree');
    const rel = Math.max(...a.map((v, i) => Math.abs(v - b[i]) / b[i]));
    console.log(`grad_norm: subgroups vs tree, max relative diff ${rel.toExponential(2)}`);
    expect(rel).toBeLessThanOrEqual(1e-6);
  });

  pairIt(
    'attention_forward: a workgroup per row with subgroups vs CPU twin, the tree and a thread per row',
    true,
    async ({ sub, plain }) => {
      const a = await attentionAgainstTwin(sub, 'rows', 'a workgroup per row, subgroups');
      const b = await attentionAgainstTwin(plain, 'threads', 'a thread per row');
      let d = 0;
      for (let i = 0; i < a.length; i++) d = Math.max(d, maxAbsDiff(a[i][0], b[i][0]), maxAbsDiff(a[i][1], b[i][1]));
      console.log(`attention_forward: subgroups rows vs a thread per row, max abs diff ${d.toExponential(2)}`);
      expect(d).toBeLessThanOrEqual(1e-5);
    },
  );
});

describe('feature choices (no GPU)', () => {
  const noFeatures = {
    requestAdapter: () =>
      Promise.resolve({
        features: new Set<string>(),
        limits: {},
        info: {},
        requestDevice: () => Promise.reject(new Error('unused')),
      }),
  } as unknown as GPU;

  it('subgroups forced on where the adapter lacks them: an error naming the feature', async () => {
    await expect(openDevice(noFeatures, 'fake', { subgroups: 'on' })).rejects.toThrow(FeatureMissingError);
    await expect(openDevice(noFeatures, 'fake', { subgroups: 'on' })).rejects.toThrow(/'subgroups' was forced on/);
    await expect(openDevice(noFeatures, 'fake', { shaderF16: 'on' })).rejects.toThrow(/'shader-f16'/);
  });

  it('a bad choice names the option and the allowed values', async () => {
    await expect(openDevice(noFeatures, 'fake', { subgroups: 'yes' as 'on' })).rejects.toThrow(
      'subgroups must be one of auto, on, off, got "yes"',
    );
  });

  it('the subgroups text variant swaps the library file and puts `enable` first', async () => {
    const { registerNodeShaders } = await import('./shaders-node');
    registerNodeShaders();
    const sub = shaderSource('logits_stats', 'subgroups');
    expect(sub.startsWith('enable subgroups;\n')).toBe(true);
    expect(sub).toContain('subgroupAdd');
    expect(sub.match(/enable subgroups;/g)).toHaveLength(1);
    const plain = shaderSource('logits_stats');
    expect(plain).not.toMatch(/^enable|subgroupAdd/m);
    expect(plain).toContain('wg_sum');
  });
});
