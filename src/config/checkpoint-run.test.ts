import { describe, expect, it } from 'vitest';
import { checkpointRun } from './checkpoint-run';
import { ConfigError, mergeConfig } from './config';
import { presetConfig } from '../lessons/presets';
import { thrown } from '../core/thrown';

const cot = presetConfig('cot-discovery'); // curriculum on task.length, from 1
const sort = mergeConfig(presetConfig('sort-easy'), { curriculum: 'off' });

const error = (raw: unknown): ConfigError =>
  thrown(ConfigError, () => checkpointRun(raw, 'ck.safetensors: run_config'));

describe("checkpointRun (a checkpoint's run config)", () => {
  it('returns the knobs, trainedSteps and level of a checkpoint the trainer wrote', () => {
    const r = checkpointRun({ ...cot, trainedSteps: 120, level: 3, init: { seed: 1 } });
    expect(r).toEqual({ config: cot, trainedSteps: 120, level: 3 });
    // Absent: 0 steps, the level a run starts at.
    expect(checkpointRun({ ...cot })).toMatchObject({ trainedSteps: 0, level: cot.curriculumStart });
    expect(checkpointRun({ ...sort })).toMatchObject({ level: sort['task.length'] });
  });

  it('names trainedSteps and level out of range (10^6, −7), never clamps them', () => {
    const steps = error({ ...cot, trainedSteps: -7 });
    expect(steps.knob).toBe('trainedSteps');
    expect(steps.message).toBe('ck.safetensors: run_config: trainedSteps must be an integer in [0, 10000000], got -7');
    expect(error({ ...cot, trainedSteps: 2.5 }).knob).toBe('trainedSteps');
    expect(error({ ...cot, trainedSteps: '3' }).knob).toBe('trainedSteps');
    const level = error({ ...cot, level: 1e6 });
    expect(level.knob).toBe('level');
    expect(level.message).toBe(
      `ck.safetensors: run_config: level must be an integer in [curriculumStart, task.length] = [1, ${cot['task.length']}], got 1000000`,
    );
    expect(error({ ...sort, level: (sort['task.length'] as number) - 1 }).message).toMatch(
      /level must be \d+ \(curriculum off: task\.length\)/,
    );
  });

  it('names a bad knob with where it came from; a non-object is refused', () => {
    expect(error({ ...cot, groupSize: 0 }).message).toBe(
      'ck.safetensors: run_config: groupSize must be an integer in [1, 64], got 0',
    );
    expect(error(null).knob).toBe('run_config');
    expect(error([1]).knob).toBe('run_config');
  });
});
