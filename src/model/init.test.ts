import { describe, expect, it } from 'vitest';
import { buildLayout } from './layout';
import { initParams } from './init';
import { readSafetensors, writeSafetensors } from './safetensors';
import { ModelConfigError, validateModelConfig, type ModelConfig } from './model-config';

const base: ModelConfig = { vocabSize: 10, nPositions: 14, nEmbd: 32, nLayer: 2, nHead: 2 };

function sampleStd(v: Float32Array): number {
  let s = 0,
    s2 = 0;
  for (const x of v) {
    s += x;
    s2 += x * x;
  }
  const m = s / v.length;
  return Math.sqrt(s2 / v.length - m * m);
}

describe('initialisation scale (model.initStd)', () => {
  it("defaults to GPT-2's 0.02, residual projections 0.02/sqrt(2L)", () => {
    const layout = buildLayout(base);
    const p = initParams(layout, 3);
    const fc = layout.blocks[0].fcw;
    const proj = layout.blocks[0].fcprojw;
    expect(sampleStd(p.subarray(fc.offset, fc.offset + fc.size))).toBeCloseTo(0.02, 2);
    expect(sampleStd(p.subarray(proj.offset, proj.offset + proj.size))).toBeCloseTo(0.01, 2);
  });

  it('scales every normal tensor by initStd and leaves LayerNorm gains at 1', () => {
    const layout = buildLayout({ ...base, initStd: 0.1 });
    const p = initParams(layout, 3);
    const fc = layout.blocks[1].fcw;
    const proj = layout.blocks[1].fcprojw;
    expect(sampleStd(p.subarray(fc.offset, fc.offset + fc.size))).toBeCloseTo(0.1, 1);
    expect(sampleStd(p.subarray(proj.offset, proj.offset + proj.size))).toBeCloseTo(0.05, 1);
    expect(p[layout.lnfw.offset]).toBe(1);
    // Same seed, same draws: the larger init is the default one scaled by 5.
    const q = initParams(buildLayout(base), 3);
    expect(p[layout.wte.offset + 7]).toBeCloseTo(5 * q[layout.wte.offset + 7], 6);
  });

  it('is written to and read from checkpoints as initializer_range', () => {
    const layout = buildLayout({ ...base, initStd: 0.1 });
    const file = writeSafetensors(
      layout,
      initParams(layout, 1),
      Array.from({ length: 10 }, (_, i) => `t${i}`),
    );
    expect(readSafetensors(file).layout.config.initStd).toBe(0.1);
  });

  it('refuses a non-positive init std, naming the field', () => {
    expect(() => validateModelConfig({ ...base, initStd: 0 })).toThrow(ModelConfigError);
    expect(() => validateModelConfig({ ...base, initStd: 0 })).toThrow(/model\.initStd/);
  });
});
