// Validation: defaults, coercion, messages that name the knob and the allowed values, rules
// between knobs, unknown keys, task switching, derived model config, diffs.

import { describe, expect, it } from 'vitest';
import { TASK_NAMES } from '../tasks/registry';
import { estimatorRows, GROUP_ESTIMATORS } from '../estimators';
import {
  ConfigError,
  configDiff,
  defaultConfig,
  diffLabel,
  mergeConfig,
  modelConfigOf,
  taskParamsAtLevel,
  taskParamsOf,
  validateConfig,
  withTask,
  type RunConfig,
} from './config';
import { thrown } from '../core/thrown';

/** The ConfigError validateConfig throws for these overrides on the defaults. */
function errorOf(raw: Record<string, unknown>): ConfigError {
  return thrown(ConfigError, () => validateConfig(raw));
}

function expectError(raw: Record<string, unknown>, knob: string, message: string | RegExp): void {
  const e = errorOf(raw);
  expect(e.knob).toBe(knob);
  if (typeof message === 'string') expect(e.message).toBe(message);
  else expect(e.message).toMatch(message);
}

describe('defaults', () => {
  it.each(TASK_NAMES)('defaultConfig(%s) validates to itself', (task) => {
    const c = defaultConfig(task);
    expect(validateConfig(c)).toEqual(c);
    expect(validateConfig({ task })).toEqual(c);
  });

  it('an empty object is the default config (groupmul)', () => {
    expect(validateConfig({})).toEqual(defaultConfig());
    expect(defaultConfig().task).toBe('groupmul');
  });

  it("picks the task's first integer parameter for the curriculum", () => {
    expect(defaultConfig('maze')).toMatchObject({ curriculumParam: 'size', curriculumStart: 3 });
    expect(defaultConfig('subsetsum')).toMatchObject({ curriculumParam: 'count', curriculumStart: 2 });
  });

  it('the largest groups fit the model: S5 (120 elements) at the longest interleaved chain', () => {
    const c = validateConfig({ 'task.group': 'S5', 'task.layout': 'interleaved', 'task.length': 16 });
    expect(modelConfigOf(c)).toMatchObject({ vocabSize: 124, nPositions: 34 });
    const a5 = validateConfig({ 'task.group': 'A5', 'task.layout': 'block', 'task.length': 16, 'task.scratch': 0 });
    expect(modelConfigOf(a5)).toMatchObject({ vocabSize: 64, nPositions: 35 });
  });

  it("has exactly the chosen task's parameters", () => {
    const keys = Object.keys(defaultConfig('sort')).filter((k) => k.startsWith('task.'));
    expect(keys).toEqual(['task.length', 'task.alphabet', 'task.reward', 'task.verifier']);
  });
});

describe('per-knob validation', () => {
  it('int: names the knob and the range', () => {
    expectError({ groupSize: 100 }, 'groupSize', 'groupSize must be an integer in [1, 64], got 100');
    expectError({ groupSize: 2.5 }, 'groupSize', 'groupSize must be an integer in [1, 64], got 2.5');
    expectError({ seed: '1.5' }, 'seed', 'seed must be an integer in [0, 4294967295], got "1.5"');
    expectError({ steps: -1 }, 'steps', 'steps must be an integer in [0, 10000000], got -1');
  });

  it('float: names the knob and the range', () => {
    expectError({ lr: 'fast' }, 'lr', 'lr must be a number in [0.000001, 1], got "fast"');
    expectError({ epsLow: 1 }, 'epsLow', 'epsLow must be a number in [0, 0.99], got 1');
    expectError({ temperature: Number.NaN }, 'temperature', /temperature must be a number in \[0\.05, 5\], got NaN/);
    expectError({ klBeta: Infinity }, 'klBeta', /klBeta must be a number in \[0, 100\]/);
  });

  it('enum: lists the allowed values', () => {
    expectError(
      { estimator: 'ppo' },
      'estimator',
      'estimator must be one of reinforce, reinforce_baseline, rloo, grpo, softmax_grpo, mapp, passk, avspo, lampo, custom; got "ppo"',
    );
    expectError({ aggregation: 3 }, 'aggregation', /^aggregation must be one of token-mean, .*; got 3$/);
    expectError({ task: 'chess' }, 'task', `task must be one of ${TASK_NAMES.join(', ')}; got "chess"`);
  });

  it('bool: true or false', () => {
    expectError({ dynamicSampling: 'yes' }, 'dynamicSampling', 'dynamicSampling must be true or false, got "yes"');
    expectError({ klMaskNew: 1 }, 'klMaskNew', 'klMaskNew must be true or false, got 1');
  });

  it("task parameters: named as task.<param>, with the task's ranges and values", () => {
    expectError({ 'task.length': 20 }, 'task.length', 'task.length must be an integer in [1, 16], got 20');
    expectError(
      { 'task.group': 'S6' },
      'task.group',
      /^task\.group must be one of Z<n> \(n 2\.\.12\), .*A5, S5, .*; got "S6"$/,
    );
    expectError(
      { task: 'maze', 'task.reward': 'last' },
      'task.reward',
      'task.reward must be one of binary, shortest, progress; got "last"',
    );
    // The task's own cross-parameter check.
    expectError(
      { 'task.layout': 'interleaved', 'task.scratch': 3 },
      'task.scratch',
      /^task\.scratch must be 0 or equal to length/,
    );
  });

  it('coerces strings from URLs and flags', () => {
    const c = validateConfig({
      groupSize: '4',
      lr: '3e-3',
      dynamicSampling: 'true',
      klMaskNew: '0',
      'task.length': ' 5 ',
    });
    expect(c).toMatchObject({ groupSize: 4, lr: 0.003, dynamicSampling: true, klMaskNew: false, 'task.length': 5 });
    expect(Object.is(validateConfig({ klBeta: -0 }).klBeta, 0)).toBe(true);
  });

  it('rejects a non-object', () => {
    expect(() => validateConfig(null as never)).toThrow(/must be an object/);
    expect(() => validateConfig([] as never)).toThrow(/must be an object/);
  });
});

describe('unknown keys', () => {
  it('names the closest known key', () => {
    expectError({ groupsize: 4 }, 'groupsize', 'unknown knob "groupsize"; did you mean groupSize?');
    expectError({ learningRate: 1 }, 'learningRate', /did you mean /);
    expectError({ 'model.nembd': 32 }, 'model.nembd', /did you mean model\.nEmbd\?/);
    expectError({ epsilonHigh: 0.28 }, 'epsilonHigh', /did you mean epsHigh\?/);
  });

  it("a parameter of another task lists the chosen task's parameters", () => {
    expectError(
      { 'task.alphabet': 4 },
      'task.alphabet',
      'task.alphabet is not a parameter of task groupmul; its parameters: task.group, task.length, task.scratch, task.layout, task.reward (did you mean task.layout?)',
    );
  });
});

describe('rules between knobs', () => {
  it('model width divisible by heads and by 4', () => {
    expectError(
      { 'model.nEmbd': 32, 'model.nHead': 3 },
      'model.nEmbd',
      'model.nEmbd (32) must be divisible by model.nHead (3)',
    );
    expectError({ 'model.nEmbd': 6, 'model.nHead': 2 }, 'model.nEmbd', 'model.nEmbd must be a multiple of 4, got 6');
  });

  it('minibatches divide N = B·G', () => {
    expectError(
      { batchPrompts: 2, groupSize: 4, minibatches: 16 },
      'minibatches',
      'minibatches must divide batchPrompts·groupSize = 8 (so every sequence is trained), got 16',
    );
    expectError(
      { batchPrompts: 2, groupSize: 4, minibatches: 3 },
      'minibatches',
      /must divide batchPrompts·groupSize = 8/,
    );
    expect(validateConfig({ batchPrompts: 2, groupSize: 4, minibatches: 8 }).minibatches).toBe(8);
  });

  it('group estimators need G ≥ 2; reinforce does not', () => {
    // The table's rows that compare with peers (src/estimators/table.ts).
    expect(GROUP_ESTIMATORS).toEqual(
      estimatorRows()
        .filter((r) => r.peers)
        .map((r) => r.name),
    );
    expect(GROUP_ESTIMATORS).toContain('grpo');
    for (const estimator of GROUP_ESTIMATORS) {
      expectError(
        { estimator, groupSize: 1, passK: 1 },
        'groupSize',
        new RegExp(`^groupSize must be at least 2 with estimator ${estimator}`),
      );
    }
    for (const row of estimatorRows().filter((r) => !r.peers)) {
      expect(validateConfig({ estimator: row.name, groupSize: 1 }).groupSize).toBe(1);
    }
    expect(validateConfig({ estimator: 'reinforce', groupSize: 1 }).groupSize).toBe(1);
  });

  it('passK ≤ G, only for the passk estimator', () => {
    expectError(
      { estimator: 'passk', groupSize: 4, passK: 8 },
      'passK',
      'passK must be an integer in [1, groupSize] = [1, 4] with estimator passk, got 8',
    );
    expect(validateConfig({ estimator: 'passk', groupSize: 4, passK: 4 }).passK).toBe(4);
    expect(validateConfig({ estimator: 'grpo', groupSize: 4, passK: 8 }).passK).toBe(8);
  });

  it('mappPool ≥ B with mapp', () => {
    expectError(
      { estimator: 'mapp', batchPrompts: 32, mappPool: 16 },
      'mappPool',
      /^mappPool must be at least batchPrompts \(32\)/,
    );
  });

  it('rewardSource: verifier or consensus; consensus keeps the verifier out of the batch', () => {
    expectError(
      { rewardSource: 'votes' },
      'rewardSource',
      'rewardSource must be one of verifier, consensus; got "votes"',
    );
    expectError(
      { rewardSource: 'consensus', dynamicSampling: true },
      'dynamicSampling',
      /^dynamicSampling must be false/,
    );
    expectError({ rewardSource: 'consensus', estimator: 'mapp' }, 'estimator', /^estimator must not be mapp/);
    expectError(
      { rewardSource: 'consensus', estimator: 'reinforce', groupSize: 1 },
      'groupSize',
      /^groupSize must be at least 2 with rewardSource consensus/,
    );
    expect(validateConfig({ rewardSource: 'consensus' }).rewardSource).toBe('consensus');
    expect(validateConfig({}).rewardSource).toBe('verifier');
  });

  it('dualClip is 0 or > 1', () => {
    expectError({ dualClip: 0.5 }, 'dualClip', 'dualClip must be 0 (off) or a number in (1, 100], got 0.5');
    expectError({ dualClip: 1 }, 'dualClip', /dualClip must be 0/);
    expect(validateConfig({ dualClip: 3 }).dualClip).toBe(3);
  });

  it('overlongBuffer below the completion length', () => {
    // sort length 5: completion region of 6 positions.
    expectError(
      { task: 'sort', overlongBuffer: 6 },
      'overlongBuffer',
      /^overlongBuffer must be 0 \(off\) or less than the completion length \(6/,
    );
    expect(validateConfig({ task: 'sort', overlongBuffer: 5 }).overlongBuffer).toBe(5);
  });

  it('sftData = base needs a task with base completions', () => {
    expectError(
      { task: 'sort', sftSteps: 10, sftData: 'base' },
      'sftData',
      /^sftData = base needs a task with base completions \(maze\); sort has none/,
    );
    expect(validateConfig({ task: 'maze', sftSteps: 10, sftData: 'base' }).sftData).toBe('base');
  });

  it('refSync = curriculum needs a curriculum', () => {
    expectError({ refSync: 'curriculum' }, 'refSync', /^refSync = curriculum needs a curriculum/);
  });

  it('curriculum parameter and start', () => {
    const on = { curriculum: 'pass-rate' };
    expectError(
      { ...on, curriculumParam: 'size' },
      'curriculumParam',
      'curriculumParam must be one of length, scratch (the integer parameters of groupmul); got "size"',
    );
    expectError(
      { ...on, 'task.length': 6, curriculumStart: 7 },
      'curriculumStart',
      'curriculumStart must be an integer in [1, task.length] = [1, 6], got 7',
    );
    expectError({ ...on, curriculumStart: 0 }, 'curriculumStart', /\[1, 8\], got 0/);
    // block layout with scratch 4: a level of length 2 or 3 would have scratch > length.
    expectError(
      { ...on, 'task.scratch': 4, curriculumStart: 2 },
      'curriculumStart',
      /^curriculumStart 2: at length = 2, task\.scratch must be/,
    );
    expect(validateConfig({ ...on, 'task.scratch': 4, curriculumStart: 4 }).curriculumStart).toBe(4);
    // Off: curriculum knobs are inert and not checked against the task.
    expect(validateConfig({ task: 'maze', curriculumParam: 'length', curriculumStart: 0 }).curriculum).toBe('off');
  });
});

describe('task switching and derived views', () => {
  it('withTask swaps the task parameters and keeps the rest', () => {
    const a = validateConfig({ lr: 0.003, 'task.length': 4, curriculum: 'pass-rate', curriculumStart: 3 });
    const b = withTask(a, 'maze');
    expect(validateConfig(b)).toEqual(b);
    expect(b.lr).toBe(0.003);
    expect(b['task.length']).toBeUndefined();
    expect(b['task.size']).toBe(5);
    expect(b).toMatchObject({ curriculumParam: 'size', curriculumStart: 3 });
    // sort has a length too: the curriculum settings stay.
    expect(withTask(a, 'sort')).toMatchObject({ curriculumParam: 'length', curriculumStart: 3, 'task.length': 5 });
  });

  it('mergeConfig re-points a config at another task', () => {
    const base = validateConfig({ 'task.length': 4, groupSize: 16 });
    const c = mergeConfig(base, { task: 'sort', 'task.alphabet': 4 });
    expect(c).toMatchObject({ task: 'sort', groupSize: 16, 'task.alphabet': 4, 'task.length': 5 });
  });

  it('modelConfigOf derives vocab and positions from the task', () => {
    // S3: 6 elements + 4 specials; block, length 8, full scratch: prompt 10, completion 9.
    expect(modelConfigOf(defaultConfig())).toEqual({
      vocabSize: 10,
      nPositions: 19,
      nEmbd: 32,
      nLayer: 2,
      nHead: 2,
      initStd: 0.02,
    });
    const interleaved = validateConfig({
      'task.layout': 'interleaved',
      'task.length': 6,
      'model.nEmbd': 48,
      'model.nHead': 4,
    });
    expect(modelConfigOf(interleaved)).toEqual({
      vocabSize: 10,
      nPositions: 14,
      nEmbd: 48,
      nLayer: 2,
      nHead: 4,
      initStd: 0.02,
    });
  });

  it('taskParamsOf / taskParamsAtLevel', () => {
    const c = validateConfig({ 'task.length': 6, curriculum: 'pass-rate' });
    expect(taskParamsOf(c)).toEqual({ group: 'S3', length: 6, scratch: 0, layout: 'block', reward: 'last' });
    expect(taskParamsAtLevel(c, 3)).toMatchObject({ length: 3 });
  });
});

describe('configDiff / diffLabel', () => {
  const a = defaultConfig();

  it('labels changes with knob labels, the seed last', () => {
    const b: RunConfig = { ...a, seed: 2, epsHigh: 0.28 };
    expect(configDiff(a, b)).toEqual([
      { key: 'seed', from: 1, to: 2 },
      { key: 'epsHigh', from: 0.2, to: 0.28 },
    ]);
    expect(diffLabel(a, b)).toBe('ε_high 0.2→0.28, seed 1→2');
    expect(diffLabel(a, a)).toBe('');
  });

  it('formats booleans, task parameters, and truncates', () => {
    const b: RunConfig = { ...a, dynamicSampling: true, 'task.length': 4, lr: 0.003, groupSize: 16 };
    expect(diffLabel(a, b)).toBe('length 8→4, group G 8→16, lr 0.001→0.003, dynamic sampling off→on');
    expect(diffLabel(a, b, { max: 2 })).toBe('length 8→4, group G 8→16, +2 more');
  });

  it('a task change: parameters on one side only are in the diff but not in the label', () => {
    const b = withTask(a, 'sort');
    const diff = configDiff(a, b);
    expect(diff.find((d) => d.key === 'task')).toEqual({ key: 'task', from: 'groupmul', to: 'sort' });
    expect(diff.find((d) => d.key === 'task.alphabet')).toEqual({ key: 'task.alphabet', from: undefined, to: 8 });
    expect(diff.find((d) => d.key === 'task.length')).toEqual({ key: 'task.length', from: 8, to: 5 });
    // sort's length starts at 2, so the curriculum start moves up with the task change
    expect(diffLabel(a, b)).toBe('task groupmul→sort, length 8→5, reward last→exact, curriculum start 1→2');
  });
});
