import { describe, expect, it } from 'vitest';
import { presetConfig } from '../lessons';
import { createAppStore } from './store';

describe('training slice', () => {
  it('moves starting → idle → running → idle, and a fault or a loss outranks the stop that follows it', () => {
    const store = createAppStore();
    const s = () => store.getState();
    expect(s().status).toBe('starting');
    s().trainingStarting(presetConfig('sort-easy'), 0);
    s().setRunning(false, 0); // a late status from the previous model
    expect(s().status).toBe('starting');
    s().trainingReady('swiftshader', 1234);
    expect(s()).toMatchObject({ status: 'idle', adapter: 'swiftshader', numParams: 1234 });
    s().setRunning(true, 0);
    expect(s().status).toBe('running');
    s().trainingFault({ step: 4, message: 'non-finite', tensors: [] });
    s().setRunning(false, 3);
    expect(s().status).toBe('fault');
    s().trainingStarting(presetConfig('sort-easy'), 0);
    expect(s().fault).toBeNull();
    s().trainingReady('swiftshader', 1234);
    s().trainingError('device-lost', 'lost');
    s().setRunning(false, 0);
    expect(s().status).toBe('lost');
    s().trainingError('config', 'bad');
    expect(s().status).toBe('error');
    s().dismissError();
    expect(s()).toMatchObject({ status: 'idle', error: null });
  });
});
