// rlvr reference: finished runs of a lesson → the page's reference curves; runs of another
// config are refused, naming the knob.

import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { presetConfig } from '../lessons';
import { differingKnob, referenceCommand, REFERENCE_POINTS } from './reference-command';

function fakeRun(
  root: string,
  name: string,
  config: object,
  steps: number,
  more: (i: number) => Record<string, number> = () => ({}),
): string {
  const dir = join(root, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  const lines = Array.from({ length: steps }, (_, i) =>
    JSON.stringify({ step: i + 1, level: i < steps / 2 ? 1 : 2, scalars: { reward: i / steps, ...more(i) } }),
  );
  writeFileSync(join(dir, 'metrics.jsonl'), [JSON.stringify({ warmStart: { steps: 0 } }), ...lines].join('\n') + '\n');
  return dir;
}

describe('rlvr reference', () => {
  it("condenses each run's reward curve and curriculum advances; seed and steps may differ from the lesson", async () => {
    const root = mkdtempSync(join(tmpdir(), 'ref-'));
    const a = fakeRun(root, 'a', { ...presetConfig('start-here'), seed: 3 }, 400);
    const out = join(root, 'ref.json');
    const printed: string[] = [];
    expect(
      await referenceCommand(['--preset', 'start-here', '--run', a, '--out', out, '--source', 'test'], (s) =>
        printed.push(s),
      ),
    ).toBe(0);
    const file = JSON.parse(readFileSync(out, 'utf8'));
    expect(file.preset).toBe('start-here');
    expect(file.runs[0].seed).toBe(3);
    expect(file.runs[0].reward.length).toBeLessThanOrEqual(REFERENCE_POINTS);
    expect(file.runs[0].reward[0]).toEqual([1, 0]);
    expect(file.runs[0].advances).toEqual([[201, 2]]);
    expect(printed[0]).toContain('reward ≥ 0.5 at step 201');
  });

  it("records the curves of the metrics the lesson's other charts draw, and only those", async () => {
    const root = mkdtempSync(join(tmpdir(), 'ref-'));
    // cot-discovery charts reward, level, task and entropy.
    const a = fakeRun(root, 'a', presetConfig('cot-discovery'), 4, (i) => ({
      entropy: 2 - i / 2,
      'task/cot_alignment_prefix': i / 4,
      'task/cot_alignment_suffix': 0.1,
      grad_norm: 3,
      frac_reward_zero_std: 0.5,
    }));
    const out = join(root, 'ref.json');
    await referenceCommand(['--preset', 'cot-discovery', '--run', a, '--out', out], () => {});
    const series = JSON.parse(readFileSync(out, 'utf8')).runs[0].series;
    expect(Object.keys(series)).toEqual(['entropy', 'task/cot_alignment_prefix']);
    expect(series.entropy).toEqual([
      [1, 2],
      [2, 1.5],
      [3, 1],
      [4, 0.5],
    ]);
    expect(series['task/cot_alignment_prefix'][3]).toEqual([4, 0.75]);
  });

  it('records a task metric that some steps, the last one among them, did not log', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ref-'));
    // A maze batch with no correct walk logs no shortest_fraction: here steps 2 and 4 (the last).
    const a = fakeRun(root, 'a', presetConfig('maze-base-rl'), 4, (i): Record<string, number> =>
      i % 2 === 0 ? { entropy: 1, 'task/shortest_fraction': i / 8 } : { entropy: 1 },
    );
    const out = join(root, 'ref.json');
    await referenceCommand(['--preset', 'maze-base-rl', '--run', a, '--out', out], () => {});
    const series = JSON.parse(readFileSync(out, 'utf8')).runs[0].series;
    expect(series['task/shortest_fraction']).toEqual([
      [1, 0],
      [3, 0.25],
    ]);
  });

  it('refuses a run trained with other settings, naming the knob', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ref-'));
    const b = fakeRun(root, 'b', { ...presetConfig('start-here'), lr: 0.01 }, 3);
    await expect(
      referenceCommand(['--preset', 'start-here', '--run', b, '--out', join(root, 'x.json')], () => {}),
    ).rejects.toThrow(/its lr differs/);
    expect(differingKnob(presetConfig('start-here'), presetConfig('start-here'))).toBeNull();
    // A run made before a knob existed has none in its config.json: the knob's default is what it ran with.
    const { 'task.nearGoals': _added, ...older } = presetConfig('maze-base-rl') as unknown as Record<string, unknown>;
    const c = fakeRun(root, 'c', older, 3);
    await expect(
      referenceCommand(['--preset', 'maze-base-rl', '--run', c, '--out', join(root, 'c.json')], () => {}),
    ).resolves.toBe(0);
  });
});
