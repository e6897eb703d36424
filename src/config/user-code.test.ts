// A run's own code as a config value: kept exactly as written everywhere it travels (validation,
// --set, the URL, a checkpoint's run config), refused by name when it is not text or too long.

import { describe, expect, it } from 'vitest';
import { ConfigError, defaultConfig, diffLabel, mergeConfig, validateConfig } from './config';
import { parseSetFlags } from './knob-flags';
import { configToSearch, searchToConfig } from '../lessons/page-url';
import { checkpointRun, checkpointRunConfig } from './checkpoint-run';
import { versusCustomGrid } from '../ablation/spec';
import { activeCode, functionLine, MAX_CODE_LENGTH, ESTIMATOR_TEMPLATE, REWARD_TEMPLATE } from './user-code';
import { isShippedCode } from './code-examples';

const code =
  '  // leading spaces & a "quote", = and ?\nfunction advantages(batch) {\n  return batch.rewards; // é ✓\n}\n\n';

describe('code knobs', () => {
  it('default to the templates and keep a value exactly, whitespace included', () => {
    expect(defaultConfig()).toMatchObject({
      customEstimator: ESTIMATOR_TEMPLATE,
      customReward: REWARD_TEMPLATE,
      rewardShaping: 'none',
    });
    expect(validateConfig({ estimator: 'custom', customEstimator: code }).customEstimator).toBe(code);
  });

  it('refuse a non-string or an over-long value, naming the knob and the limit', () => {
    const bad = (v: unknown) => {
      try {
        validateConfig({ customEstimator: v });
      } catch (e) {
        return e as ConfigError;
      }
      throw new Error('accepted');
    };
    expect(bad(42)).toMatchObject({
      knob: 'customEstimator',
      message: expect.stringContaining('JavaScript or TypeScript source, at most 20,000 characters'),
    });
    expect(bad('x'.repeat(MAX_CODE_LENGTH + 1)).message).toMatch(/got 20,001 characters$/);
  });

  it('--set keeps code exactly and trims everything else', () => {
    expect(parseSetFlags([`customEstimator=${code}`, 'lr= 0.01 '])).toEqual({ customEstimator: code, lr: '0.01' });
  });

  it("travel through a URL and a checkpoint's run config unchanged", () => {
    const config = mergeConfig(defaultConfig(), {
      estimator: 'custom',
      customEstimator: code,
      rewardShaping: 'custom',
      customReward: code.replace('advantages', 'rewards'),
    });
    const back = searchToConfig(configToSearch(config));
    expect(back.errors).toEqual([]);
    expect(back.config).toEqual(config);
    const run = checkpointRun(
      JSON.parse(
        JSON.stringify(checkpointRunConfig(config, { trainedSteps: 5, level: config['task.length'] as number })),
      ),
    );
    expect(run.config).toEqual(config);
  });

  it('label a change by the knob, not the whole code', () => {
    const a = mergeConfig(defaultConfig(), { estimator: 'custom' });
    expect(diffLabel(a, mergeConfig(a, { customEstimator: code }))).toBe('your estimator edited');
  });
});

describe('which code runs', () => {
  it('only the code a config turns on, and only code the page did not ship asks first', () => {
    const c = defaultConfig();
    expect(activeCode(c)).toEqual({});
    expect(activeCode({ ...c, estimator: 'custom' })).toEqual({ estimator: ESTIMATOR_TEMPLATE });
    expect(activeCode({ ...c, rewardShaping: 'custom', customReward: code })).toEqual({ reward: code });
    expect(isShippedCode(ESTIMATOR_TEMPLATE)).toBe(true);
    expect(isShippedCode(code)).toBe(false);
  });

  it('finds the line that defines the function', () => {
    expect(functionLine(code, 'estimator')).toBe(2);
    expect(functionLine('// x\n\nconst rewards = (b) => b.rewards;', 'reward')).toBe(3);
    expect(functionLine('nothing here', 'estimator')).toBe(1);
  });

  it("puts your estimator beside a lesson's, unless the lesson compares estimators already", () => {
    expect(versusCustomGrid('sort-easy')).toEqual([['estimator', ['grpo', 'custom']]]);
    expect(versusCustomGrid('your-estimator')).toBeUndefined();
  });
});
