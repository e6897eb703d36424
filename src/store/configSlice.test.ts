import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../config';
import { configToSearch, presetConfig, searchToConfig } from '../lessons';
import { createAppStore } from './store';

describe('config slice', () => {
  it("sets a knob from a control's raw text; the URL of the result round-trips", () => {
    const store = createAppStore();
    store.getState().choosePreset('sort-easy');
    expect(store.getState().setKnob('epsHigh', '0.28')).toBeUndefined();
    expect(store.getState().setKnob('dynamicSampling', true)).toBeUndefined();
    const { config, preset } = store.getState();
    expect(config.epsHigh).toBe(0.28);
    const search = configToSearch(config, preset);
    expect(search).toBe('preset=sort-easy&epsHigh=0.28&dynamicSampling=true');
    expect(searchToConfig(search)).toEqual({ config, preset: 'sort-easy', errors: [] });
  });

  it("refuses an invalid value with the knob's message and keeps the previous value", () => {
    const store = createAppStore();
    const before = store.getState().config;
    expect(store.getState().setKnob('lr', 'abc')).toBe('lr must be a number in [0.000001, 1], got "abc"');
    expect(store.getState().config).toBe(before);
    expect(store.getState().knobErrors).toEqual({ lr: 'lr must be a number in [0.000001, 1], got "abc"' });
    // a rule between knobs: the message names it, the edit is refused
    expect(store.getState().setKnob('minibatches', '3')).toContain('minibatches must divide batchPrompts·groupSize');
    expect(store.getState().config.minibatches).toBe(1);
    // a good value clears the knob's message
    store.getState().setKnob('lr', '0.002');
    expect(store.getState().knobErrors.lr).toBeUndefined();
    expect(store.getState().config.lr).toBe(0.002);
    expect(store.getState().setKnob('nope', 1)).toContain('nope');
  });

  it("changing the task resets the task parameters to the new task's defaults", () => {
    const store = createAppStore();
    store.getState().setKnob('task', 'maze');
    const c = store.getState().config;
    expect(c.task).toBe('maze');
    expect(
      Object.keys(c)
        .filter((k) => k.startsWith('task.'))
        .sort(),
    ).toEqual(
      Object.keys(defaultConfig('maze'))
        .filter((k) => k.startsWith('task.'))
        .sort(),
    );
  });

  it('choosing a preset loads its config; no preset loads the defaults', () => {
    const store = createAppStore();
    store.getState().setKnob('lr', 'x');
    store.getState().choosePreset('maze-grpo');
    expect(store.getState()).toMatchObject({ config: presetConfig('maze-grpo'), preset: 'maze-grpo', knobErrors: {} });
    store.getState().choosePreset(undefined);
    expect(store.getState()).toMatchObject({ config: defaultConfig(), preset: undefined });
  });

  it('a bad URL keeps the defaults for the bad values and lists them', () => {
    const store = createAppStore();
    const url = searchToConfig('?preset=sort-easy&groupSize=100&seed=9');
    store.getState().setConfig(url.config, url.preset);
    store.getState().setUrlErrors(url.errors);
    expect(store.getState().config).toEqual({ ...presetConfig('sort-easy'), seed: 9 });
    expect(store.getState().urlErrors.map((e) => e.knob)).toEqual(['groupSize']);
  });
});
