import { describe, expect, it } from 'vitest';
import { modelConfigOf, presetConfig } from '../config';
import { buildLayout } from '../model/layout';
import { initParams } from '../model/init';
import { writeSafetensors } from '../model/safetensors';
import { loadCheckpoint } from './checkpointFile';

describe('checkpoint import', () => {
  const config = { ...presetConfig('sort-easy'), seed: 5 };
  const layout = buildLayout(modelConfigOf(config));
  const params = initParams(layout, 5);

  it('reads weights, the run config and where the run stood', () => {
    const bytes = writeSafetensors(layout, params, ['a'].concat(Array(layout.config.vocabSize - 1).fill('t')), { ...config, trainedSteps: 42, level: 3 });
    const ck = loadCheckpoint(bytes, 'ck.safetensors');
    expect(ck.config).toEqual(config);
    expect(ck.resume).toEqual({ step: 42, level: 3 });
    expect(ck.params).toEqual(params);
  });

  it('says what is wrong: no run config, a bad knob, a broken file', () => {
    const vocab = Array(layout.config.vocabSize).fill('t');
    expect(() => loadCheckpoint(writeSafetensors(layout, params, vocab), 'x.safetensors')).toThrow('x.safetensors has no run config');
    expect(() => loadCheckpoint(writeSafetensors(layout, params, vocab, { ...config, groupSize: 999 }), 'x.safetensors')).toThrow(
      'x.safetensors: run_config: groupSize must be an integer in [1, 64], got 999',
    );
    expect(() => loadCheckpoint(new Uint8Array([1, 2, 3]), 'x.safetensors')).toThrow('x.safetensors: file is 3 bytes');
  });
});
