import { describe, expect, it } from 'vitest';
import { presetConfig } from '../lessons';
import type { StepRecord } from '../rl/step-metrics';
import type { RolloutView } from '../worker/protocol';
import { createAppStore } from './store';

const config = presetConfig('sort-easy');
const rec = (step: number): StepRecord => ({
  step,
  scalars: { reward: step },
  entropy_by_pos: [],
  advantage_histogram: { counts: [], edges: [] },
  level: 3,
});
const view = (step: number) => ({ step }) as unknown as RolloutView;
const none = { records: [], evals: [], rollout: null, phase: null };

describe('runs slice', () => {
  it('a new run replaces an active run that never took a step', () => {
    const store = createAppStore();
    const a = store.getState().beginRun(config, 'sort-easy');
    const b = store.getState().beginRun({ ...config, seed: 2 }, 'sort-easy');
    expect(store.getState().runs.map((r) => r.id)).toEqual([b]);
    expect(store.getState().runs[0].name).toBe('#1');
    store.getState().applyBatch({ ...none, records: [rec(1)] });
    const c = store.getState().beginRun({ ...config, seed: 3 }, 'sort-easy');
    expect(store.getState().runs.map((r) => r.id)).toEqual([b, c]);
    expect(store.getState().runs[1]).toMatchObject({ name: '#2', label: 'sort-easy: seed 1→3' });
    expect(a).not.toBe(b);
  });

  it('applies a batch: metrics to the active run, the step counter, the rollout, the phase', () => {
    const store = createAppStore();
    const id = store.getState().beginRun(config, undefined);
    store.getState().applyBatch({ records: [rec(1), rec(2)], evals: [], rollout: view(2), phase: null });
    let s = store.getState();
    expect(s.step).toBe(2);
    expect(s.runs.find((r) => r.id === id)!.points).toHaveLength(2);
    expect(s.rollout).toEqual(view(2));
    // phase by phase: the display follows the phases and stays on 'update' when the step's record comes
    store.getState().applyBatch({ ...none, phase: { phase: 'sample', step: 3 }, rollout: view(3) });
    expect(store.getState().phase).toEqual({ phase: 'sample', step: 3 });
    expect(store.getState().step).toBe(2);
    store.getState().applyBatch({ ...none, phase: { phase: 'update', step: 3 } });
    store.getState().applyBatch({ ...none, records: [rec(3)] });
    s = store.getState();
    expect(s.phase).toEqual({ phase: 'update', step: 3 });
    expect(s.step).toBe(3);
    // a whole step clears it
    store.getState().applyBatch({ ...none, records: [rec(4)] });
    expect(store.getState().phase).toBeNull();
  });

  it('overlays, removes and hydrates runs', () => {
    const store = createAppStore();
    const a = store.getState().beginRun(config, undefined);
    store.getState().applyBatch({ ...none, records: [rec(1)] });
    store.getState().toggleOverlay('x');
    expect(store.getState().overlay).toEqual(['x']);
    store.getState().toggleOverlay('x');
    expect(store.getState().overlay).toEqual([]);
    const old = { ...store.getState().runs[0], id: 'old', name: '#0', createdAt: -1 };
    store.getState().hydrateRuns([old, { ...store.getState().runs[0] }]);
    expect(store.getState().runs.map((r) => r.id)).toEqual(['old', a]);
    store.getState().toggleOverlay('old');
    store.getState().removeRun('old');
    expect(store.getState().runs.map((r) => r.id)).toEqual([a]);
    expect(store.getState().overlay).toEqual([]);
    store.getState().removeRun(a);
    expect(store.getState().activeRunId).toBeNull();
  });
});
