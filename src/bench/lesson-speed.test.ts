// The heavy lessons' speed bench: it times the lessons' own runs (their presets at the last
// curriculum level) and projects each budget from the median step.
import { describe, expect, it } from 'vitest';
import { gpuIt } from '../gpu/testing';
import { getPreset } from '../lessons/presets';
import { quickBench } from './testOptions';
import { HEAVY_LESSONS, lessonConfig, lessonSpeedSuite, type LessonSpeed } from './lesson-speed';

describe('lesson-speed benchmark', () => {
  it.each(HEAVY_LESSONS)("%s: the lesson's own run at its last level, with no held-out checks", (lesson) => {
    const c = lessonConfig(lesson);
    expect(c.curriculum).toBe('off');
    expect(c.evalEvery).toBe(0);
    // The lesson's batch, group and budget are kept.
    const own = getPreset(lesson).set;
    for (const key of ['batchPrompts', 'groupSize', 'steps'] as const)
      if (own[key] !== undefined) expect(c[key]).toBe(own[key]);
  });

  it('names the field and the allowed lessons on a bad --lessons', async () => {
    const run = lessonSpeedSuite.run(null as never, quickBench({ lessons: 'cot-s4,nope' }).opts);
    await expect(run).rejects.toThrow(/--lessons: unknown lesson "nope"; lessons: .*cot-s4/);
  });

  gpuIt('times whole steps, counts their device calls and projects the budget', async (gpu) => {
    const { opts, lines } = quickBench(
      {
        lessons: 'cot-a4',
        set: ['model.nEmbd=8', 'model.nLayer=1', 'model.nHead=2', 'batchPrompts=2', 'groupSize=2'],
      },
      { reps: 2, warmup: 1 },
    );
    const result = (await lessonSpeedSuite.run(gpu, opts)) as { lessons: LessonSpeed[] };
    const [r] = result.lessons;
    expect(r).toMatchObject({ lesson: 'cot-a4', samples: 4, budget: getPreset('cot-a4').set.steps });
    expect(r.stepSeconds).toHaveLength(2);
    expect(r.projectedHours).toBeCloseTo((r.budget * r.medianStepSeconds) / 3600, 10);
    expect(r.medianCpuSeconds).toBeGreaterThan(0);
    // A step samples and updates on the device: dispatches in both phases, and at least one submit and readback each.
    expect(r.counts.dispatches).toBeGreaterThan(20);
    expect(r.counts.submits).toBeGreaterThanOrEqual(2);
    expect(r.counts.readbacks).toBeGreaterThanOrEqual(2);
    expect(lines.join('\n')).toMatch(/cot-a4 .* 2,500 /);
  });
});
