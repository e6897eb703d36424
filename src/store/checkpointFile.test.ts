import { describe, expect, it } from 'vitest';
import { modelConfigOf } from '../config';
import { presetConfig } from '../lessons';
import { buildLayout } from '../model/layout';
import { initParams } from '../model/init';
import { writeSafetensors } from '../model/safetensors';
import { loadCheckpoint } from './checkpointFile';

describe('checkpoint import', () => {
  const config = { ...presetConfig('sort-easy'), seed: 5 };
  const layout = buildLayout(modelConfigOf(config));
  const params = initParams(layout, 5);

  it('reads weights, the run config and where the run stood', () => {
    const bytes = writeSafetensors(layout, params, ['a'].concat(Array(layout.config.vocabSize - 1).fill('t')), {
      ...config,
      trainedSteps: 42,
      level: 3,
    });
    const ck = loadCheckpoint(bytes, 'ck.safetensors');
    expect(ck.config).toEqual(config);
    expect(ck.resume).toEqual({ step: 42, level: 3 });
    expect(ck.params).toEqual(params);
  });

  it('says what is wrong: no run config, a bad knob, a broken file', () => {
    const vocab = Array(layout.config.vocabSize).fill('t');
    expect(() => loadCheckpoint(writeSafetensors(layout, params, vocab), 'x.safetensors')).toThrow(
      'x.safetensors has no run config',
    );
    expect(() =>
      loadCheckpoint(writeSafetensors(layout, params, vocab, { ...config, groupSize: 999 }), 'x.safetensors'),
    ).toThrow('x.safetensors: run_config: groupSize must be an integer in [1, 64], got 999');
    expect(() => loadCheckpoint(new Uint8Array([1, 2, 3]), 'x.safetensors')).toThrow('x.safetensors: file is 3 bytes');
  });

  it('refuses weights that are not the model of their run config, and a level or step count out of range, naming the field', () => {
    const vocab = Array(layout.config.vocabSize).fill('t');
    const other = { ...config, 'model.nEmbd': 32 }; // the weights are width 16
    expect(() => loadCheckpoint(writeSafetensors(layout, params, vocab, other), 'x.safetensors')).toThrow(
      /x\.safetensors: the weights \(4,\d+ parameters: vocab 7, 9 positions, width 16, 1 layers\) are not the model its run config builds/,
    );
    expect(() =>
      loadCheckpoint(writeSafetensors(layout, params, vocab, { ...config, level: 1_000_000 }), 'x.safetensors'),
    ).toThrow('x.safetensors: run_config: level must be 3 (curriculum off: task.length), got 1000000');
    expect(() =>
      loadCheckpoint(writeSafetensors(layout, params, vocab, { ...config, trainedSteps: -7 }), 'x.safetensors'),
    ).toThrow(/trainedSteps must be an integer in \[0, \d+\], got -7/);
  });
});
