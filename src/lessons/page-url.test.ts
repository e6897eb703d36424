// URL state: minimal, exact round trip for every knob, and bad input reported, never thrown.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultConfig, validateConfig, withTask } from '../config/config';
import { PRESET_NAMES, presetConfig } from './presets';
import { runConfigArb } from '../config/testArbitraries';
import { configToSearch, LANDING_PRESET, pageSearch, searchToConfig, searchToPage } from './page-url';

describe('configToSearch', () => {
  it('writes preset=none for the bare defaults (an empty URL opens the landing lesson), only the preset for a preset', () => {
    expect(configToSearch(defaultConfig())).toBe('preset=none');
    expect(searchToConfig('preset=none')).toEqual({ config: defaultConfig(), errors: [] });
    expect(searchToConfig('')).toEqual({ config: presetConfig(LANDING_PRESET), preset: LANDING_PRESET, errors: [] });
    expect(searchToConfig('?')).toEqual({ config: presetConfig(LANDING_PRESET), preset: LANDING_PRESET, errors: [] });
    expect(configToSearch(presetConfig('cot-discovery'), 'cot-discovery')).toBe('preset=cot-discovery');
  });

  it("carries the page's view and zoom beside the config, and names a bad one", () => {
    const search = pageSearch(presetConfig('dead-groups'), 'dead-groups', { view: 'dashboard', zoom: true });
    expect(search).toBe('preset=dead-groups&view=dashboard&zoom=1');
    expect(searchToConfig(search)).toEqual({ config: presetConfig('dead-groups'), preset: 'dead-groups', errors: [] });
    expect(searchToPage(search)).toEqual({ page: { view: 'dashboard', zoom: true }, errors: [] });
    expect(pageSearch(defaultConfig(), undefined, { view: 'lecture', zoom: false })).toBe('preset=none');
    expect(searchToPage('view=wide&zoom=2').errors.map((e) => e.knob)).toEqual(['view', 'zoom']);
  });

  it("carries a lesson's trained model by its label, which is no knob", () => {
    const search = pageSearch(presetConfig('cot-discovery'), 'cot-discovery', { trained: 'solved (length 6)' });
    expect(search).toBe('preset=cot-discovery&trained=solved%20(length%206)');
    expect(searchToConfig(search)).toEqual({
      config: presetConfig('cot-discovery'),
      preset: 'cot-discovery',
      errors: [],
    });
    expect(searchToPage(search)).toEqual({ page: { trained: 'solved (length 6)' }, errors: [] });
    expect(searchToPage('preset=cot-discovery&trained=').page).toEqual({});
  });

  it('writes only what differs, in table order, with shortest floats', () => {
    const c = validateConfig({ seed: 7, lr: 0.003, 'task.length': 4, dynamicSampling: true, adamEps: 1e-7 });
    expect(configToSearch(c)).toBe('seed=7&task.length=4&lr=0.003&adamEps=1e-7&dynamicSampling=true');
    const p = { ...presetConfig('clip-higher'), epsHigh: 0.2 };
    expect(configToSearch(p, 'clip-higher')).toBe('preset=clip-higher&epsHigh=0.2');
  });

  it("writes a task change, and task parameters relative to that task's defaults", () => {
    const c = { ...withTask(defaultConfig(), 'sort'), 'task.alphabet': 4 };
    expect(configToSearch(c)).toBe('task=sort&task.alphabet=4');
  });
});

describe('round trip', () => {
  it('is exact for random valid configs, with and without a preset', () => {
    fc.assert(
      fc.property(runConfigArb, fc.option(fc.constantFrom(...PRESET_NAMES), { nil: undefined }), (config, preset) => {
        const search = configToSearch(config, preset);
        const back = searchToConfig(search);
        expect(back.errors).toEqual([]);
        expect(back.config).toEqual(config);
        expect(back.preset).toBe(preset);
        // and with a leading "?", as location.search has it
        expect(searchToConfig('?' + search).config).toEqual(config);
      }),
      { numRuns: 300 },
    );
  });

  it('is exact for every preset and for awkward floats', () => {
    for (const name of PRESET_NAMES) {
      const c = presetConfig(name);
      expect(searchToConfig(configToSearch(c, name)).config).toEqual(c);
      expect(searchToConfig(configToSearch(c)).config).toEqual(c);
    }
    for (const lr of [1e-6, 0.1 + 0.2, 1 / 3, 5.000000000000001e-4, 1]) {
      const c = validateConfig({ lr });
      expect(searchToConfig(configToSearch(c)).config.lr).toBe(lr);
    }
  });
});

describe('bad URLs', () => {
  it('reports a malformed or out-of-range value and keeps the default', () => {
    const { config, errors } = searchToConfig('?groupSize=100&lr=abc&seed=5&estimator=ppo&klMaskNew=maybe');
    expect(config).toEqual({ ...defaultConfig(), seed: 5 });
    expect(errors).toEqual([
      { knob: 'groupSize', message: 'groupSize must be an integer in [1, 64], got "100"' },
      { knob: 'lr', message: 'lr must be a number in [0.000001, 1], got "abc"' },
      {
        knob: 'estimator',
        message:
          'estimator must be one of reinforce, reinforce_baseline, rloo, grpo, softmax_grpo, mapp, passk, avspo, lampo, custom; got "ppo"',
      },
      { knob: 'klMaskNew', message: 'klMaskNew must be true or false, got "maybe"' },
    ]);
  });

  it("keeps the preset's value, not the default, for a bad value on a preset", () => {
    const { config, errors, preset } = searchToConfig('preset=cot-discovery&groupSize=0');
    expect(preset).toBe('cot-discovery');
    expect(config.groupSize).toBe(16);
    expect(errors.map((e) => e.knob)).toEqual(['groupSize']);
  });

  it('reports unknown keys with a suggestion, an unknown preset, an unknown task', () => {
    const r = searchToConfig('grupSize=4&preset=nope&task=chess&task.alphabet=3');
    expect(r.config).toEqual(defaultConfig());
    expect(r.preset).toBeUndefined();
    expect(r.errors.map((e) => e.knob)).toEqual(['preset', 'task', 'grupSize', 'task.alphabet']);
    expect(r.errors[2].message).toBe('unknown knob "grupSize"; did you mean groupSize?');
    expect(r.errors[0].message).toMatch(/^preset must be one of start-here, dead-groups, /);
  });

  it('reverts a value that breaks a rule between knobs, keeping the rest', () => {
    const r = searchToConfig('model.nHead=3&lr=0.01');
    expect(r.config).toEqual({ ...defaultConfig(), lr: 0.01 });
    expect(r.errors).toEqual([
      { knob: 'model.nEmbd', message: 'model.nEmbd (32) must be divisible by model.nHead (3)' },
    ]);
    // The rule names a knob the URL did not set: the latest value is dropped.
    const s = searchToConfig('estimator=passk&groupSize=2');
    expect(s.config).toEqual({ ...defaultConfig(), estimator: 'passk' });
    expect(s.errors.map((e) => e.knob)).toEqual(['passK']);
  });

  it('never throws on junk', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const r = searchToConfig(s);
        expect(validateConfig(r.config)).toEqual(r.config);
      }),
      { numRuns: 200 },
    );
    for (const s of ['?', '&&&', '=', '%', 'lr', 'lr=', 'task=maze&task.size=%FF', '?preset=']) {
      expect(() => searchToConfig(s)).not.toThrow();
    }
  });
});
