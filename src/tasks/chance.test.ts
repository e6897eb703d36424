// Chance levels: the exact values where they are known in closed form.

import { describe, expect, it } from 'vitest';
import { chanceOf } from './chance';
import { getTask } from './registry';
import { parseParams } from './params';
import { EOS, NUM_SPECIAL } from './types';

const params = (task: string, raw: Record<string, unknown>) => parseParams(getTask(task), raw);

describe('chance', () => {
  it('a last-token guess over S3 is right 1 time in 6, over A4 1 in 12', () => {
    const s3 = chanceOf(
      getTask('groupmul'),
      params('groupmul', { group: 'S3', length: 4, layout: 'interleaved' }),
      6000,
    );
    expect(s3.pass).toBeCloseTo(1 / 6, 1);
    expect(s3.reward).toBe(s3.pass); // binary reward
    const a4 = chanceOf(
      getTask('groupmul'),
      params('groupmul', { group: 'A4', length: 3, layout: 'interleaved' }),
      6000,
    );
    expect(a4.pass).toBeCloseTo(1 / 12, 1);
  });

  it('sort with a partial reward: the Monte Carlo estimate agrees with the exact average over every guess', () => {
    // length 2 over {a, b}: 4 inputs × 27 guesses over {a, b, end} at the 3 positions.
    const task = getTask('sort');
    const p = params('sort', { length: 2, alphabet: 2, reward: 'partial' });
    let exact = 0;
    for (const input of [
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
    ]) {
      const inst = task.fromJSON({ task: 'sort', params: p, input });
      for (let code = 0; code < 27; code++) {
        const guess = [code % 3, Math.floor(code / 3) % 3, Math.floor(code / 9)].map((k) =>
          k === 2 ? EOS : NUM_SPECIAL + k,
        );
        exact += task.verify(inst, guess).reward;
      }
    }
    exact /= 4 * 27;
    const c = chanceOf(task, p, 20000);
    expect(Math.abs(c.reward - exact)).toBeLessThan(0.01);
    expect(chanceOf(task, params('sort', { length: 4, alphabet: 4, reward: 'partial' }), 2000).pass).toBeLessThan(0.01);
  });

  it('is deterministic for a seed', () => {
    const p = params('maze', { size: 4 });
    expect(chanceOf(getTask('maze'), p, 300, 3)).toEqual(chanceOf(getTask('maze'), p, 300, 3));
  });
});
