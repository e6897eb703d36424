// Whether a run's held-out figures can measure generalisation: the warning the methods suite's
// leaderboard prints for a task whose held-out part is too small, and none where it is not.
import { describe, expect, it } from 'vitest';
import { curriculumLevels, mergeConfig } from '../config/config';
import { presetConfig } from '../lessons/presets';
import { getTask } from '../tasks/registry';
import { drawHeldOutSet, heldOutWarning } from './held-out';

describe('heldOutWarning', () => {
  it('sort-easy: 27 sequences, one held out, so its held-out prompts are one instance again and again', () => {
    const config = mergeConfig(presetConfig('sort-easy'), { evalPrompts: 16 });
    const set = drawHeldOutSet(config, getTask(config.task), curriculumLevels(config)[1], 16);
    expect(set.split).toBe('heldout');
    expect(new Set(set.instances.map((i) => JSON.stringify(i))).size).toBe(1);
    expect(heldOutWarning(config, getTask(config.task))).toMatch(
      /^only 1 distinct held-out instances among 16 prompts/,
    );
  });

  it('4×4 mazes from the base model: distinct held-out mazes, no warning', () => {
    const config = mergeConfig(presetConfig('maze-base-rl'), { evalPrompts: 64 });
    expect(heldOutWarning(config, getTask(config.task))).toBeUndefined();
  });
});
