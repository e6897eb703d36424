// CLI: layering of preset < file < --set, errors naming the knob and its source (--set parsing
// is src/config/knob-flags.test.ts).

import { describe, expect, it } from 'vitest';
import { configFromCli } from './preset-flags';
import { ConfigError, defaultConfig } from '../config';
import { presetConfig, variantConfig } from './presets';

describe('configFromCli', () => {
  it('defaults, preset, file, --set, later wins', () => {
    expect(configFromCli({})).toEqual(defaultConfig());
    expect(configFromCli({ preset: 'sort-easy' })).toEqual(presetConfig('sort-easy'));
    const c = configFromCli({
      preset: 'sort-easy',
      configFile: JSON.stringify({ lr: 0.02, seed: 3 }),
      sets: ['seed=4', 'task.length=4'],
    });
    expect(c).toEqual({ ...presetConfig('sort-easy'), lr: 0.02, seed: 4, 'task.length': 4 });
  });

  it('a variant is layered on its preset, under --set; without a preset it is refused', () => {
    expect(configFromCli({ preset: 'dead-groups', variant: 'partial reward', sets: ['seed=3'] })).toEqual({
      ...variantConfig('dead-groups', 'partial reward'),
      seed: 3,
    });
    expect(() => configFromCli({ variant: 'partial reward' })).toThrow(/--variant needs a preset/);
    expect(() => configFromCli({ preset: 'dead-groups', variant: 'nope' })).toThrow(
      /variants "partial reward", "dynamic sampling"/,
    );
  });

  it('accepts a parsed file, a preset named in the file, and a saved full config', () => {
    expect(configFromCli({ configFile: { preset: 'clip-higher', seed: 9 } })).toEqual({
      ...presetConfig('clip-higher'),
      seed: 9,
    });
    expect(configFromCli({ preset: 'sort-easy', configFile: { preset: 'clip-higher' } })).toEqual(
      presetConfig('sort-easy'),
    );
    const saved = presetConfig('mapp-vs-grpo');
    expect(configFromCli({ configFile: JSON.stringify(saved) })).toEqual(saved);
  });

  it('switches task across layers', () => {
    const c = configFromCli({ preset: 'cot-discovery', sets: ['task=sort', 'curriculum=off', 'refSync=none'] });
    expect(c).toMatchObject({ task: 'sort', 'task.length': 5, groupSize: 16 });
    expect(c['task.group']).toBeUndefined();
  });

  it("file and flags may fix each other's cross-field rules", () => {
    const c = configFromCli({ configFile: { 'model.nHead': 3 }, sets: ['model.nEmbd=48'] });
    expect(c).toMatchObject({ 'model.nHead': 3, 'model.nEmbd': 48 });
  });

  it('errors name the knob and where the value came from', () => {
    const err = (f: () => unknown): ConfigError => {
      try {
        f();
      } catch (e) {
        return e as ConfigError;
      }
      throw new Error('no error');
    };
    let e = err(() => configFromCli({ sets: ['groupSize=100'] }));
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.knob).toBe('groupSize');
    expect(e.message).toBe('groupSize must be an integer in [1, 64], got "100" (from --set groupSize=100)');
    e = err(() => configFromCli({ configFile: { estimator: 'ppo' } }));
    expect(e.message).toMatch(/^estimator must be one of .*; got "ppo" \(from the config file\)$/);
    e = err(() => configFromCli({ sets: ['groupsize=4'] }));
    expect(e.message).toMatch(/^unknown knob "groupsize"; did you mean groupSize\?/);
    e = err(() => configFromCli({ configFile: '{lr: 1' }));
    expect(e.knob).toBe('config');
    expect(e.message).toMatch(/^the config file is not valid JSON/);
    e = err(() => configFromCli({ configFile: '[1]' }));
    expect(e.message).toMatch(/must hold a JSON object/);
    e = err(() => configFromCli({ preset: 'nope' }));
    expect(e.knob).toBe('preset');
  });
});
