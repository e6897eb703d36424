// Properties every task must have: answers verify, verifiers are total, seeds reproduce,
// instances survive JSON, and the template matches the declared shape.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeRng, STREAM } from '../core/random';
import { parseParams } from './params';
import { getTask, instanceFromJSON, TASK_NAMES, TASKS } from './registry';
import { junkCompletion, paramsArbitrary, specArbitrary } from './testArbitraries';
import { textToTokens, tokensToText } from './tokens';
import { BOS, EOS, NUM_SPECIAL, SPECIAL_TOKENS, type Task, type TaskInstance } from './types';

const RUNS = 80;

function sampleOne(task: Task, rawParams: Record<string, unknown>, seed: number): TaskInstance {
  return task.sample(makeRng(seed, STREAM.tasks), parseParams(task, rawParams));
}

describe.each(TASK_NAMES)('task %s', (name) => {
  const task: Task = TASKS[name];
  const params = paramsArbitrary(name, task);
  const seed = fc.integer({ min: 0, max: 2 ** 32 - 1 });

  it('its spec table alone draws parameters it accepts (what a new task is tested with)', () => {
    fc.assert(
      fc.property(specArbitrary(task), (raw) => {
        expect(() => parseParams(task, raw)).not.toThrow();
      }),
      { numRuns: 20 },
    );
  });

  it('has a vocabulary with the special tokens first and unique, space-free task tokens', () => {
    fc.assert(
      fc.property(params, (raw) => {
        const vocab = task.vocab(parseParams(task, raw));
        expect(vocab.slice(0, NUM_SPECIAL)).toEqual(SPECIAL_TOKENS);
        expect(new Set(vocab).size).toBe(vocab.length);
        for (const t of vocab) expect(t).toMatch(/^\S+$/);
      }),
      { numRuns: RUNS },
    );
  });

  it('samples instances whose own answer gets reward 1, on a template that matches the shape', () => {
    fc.assert(
      fc.property(params, seed, (raw, s) => {
        const p = parseParams(task, raw);
        const inst = sampleOne(task, raw, s);
        const vocab = task.vocab(p);
        const shape = task.shape(p);
        expect(inst.task).toBe(name);
        expect(inst.promptTokens[0]).toBe(BOS);
        expect(inst.promptTokens.length).toBe(shape.promptLength);
        expect(inst.completionLength).toBe(shape.completionLength);
        expect(inst.fixed.length).toBe(inst.completionLength);
        expect(inst.answerTokens.length).toBeLessThanOrEqual(inst.completionLength);
        expect(inst.answerTokens.at(-1)).toBe(EOS);
        inst.fixed.forEach((f, i) => {
          if (f !== null && i < inst.answerTokens.length) expect(inst.answerTokens[i]).toBe(f);
        });
        for (const t of [...inst.promptTokens, ...inst.answerTokens]) {
          expect(Number.isInteger(t) && t > 0 && t < vocab.length).toBe(true);
        }
        expect(inst.promptText).toBe(tokensToText(vocab, inst.promptTokens));
        expect(textToTokens(vocab, inst.answerText)).toEqual(inst.answerTokens);
        const v = task.verify(inst, inst.answerTokens);
        expect(v).toMatchObject({ reward: 1, correct: true });
        expect(task.errorSignature(inst, inst.answerTokens)).toBe('correct');
      }),
      { numRuns: RUNS },
    );
  });

  it('has a total verifier: any token array gets a reward in [0, 1] and nothing throws', () => {
    fc.assert(
      fc.property(
        params.chain((raw) => {
          const inst = sampleOne(task, raw, 7);
          const v = task.vocab(parseParams(task, raw)).length;
          // Junk, and the answer with junk spliced in (closer to what a policy writes).
          const spliced = fc
            .tuple(junkCompletion(v, inst.completionLength), fc.nat(inst.answerTokens.length))
            .map(([junk, at]) => [...inst.answerTokens.slice(0, at), ...junk]);
          return fc.tuple(fc.constant(inst), fc.oneof(junkCompletion(v, inst.completionLength), spliced));
        }),
        ([inst, completion]) => {
          const r = task.verify(inst, completion);
          expect(r.reward).toBeGreaterThanOrEqual(0);
          expect(r.reward).toBeLessThanOrEqual(1);
          expect(typeof r.correct).toBe('boolean');
          if (r.correct) expect(r.reward).toBeGreaterThan(0);
          if (r.reward === 1) expect(r.correct).toBe(true);
          expect(() => JSON.stringify(r.details)).not.toThrow();
          expect(typeof task.signature(inst, completion)).toBe('string');
          expect(typeof task.errorSignature(inst, completion)).toBe('string');
          const metrics = task.groupMetrics?.(inst, [completion, inst.answerTokens, []]) ?? {};
          for (const value of Object.values(metrics)) expect(Number.isFinite(value)).toBe(true);
        },
      ),
      { numRuns: RUNS * 2 },
    );
  });

  it('survives nonsense where the completion array should be', () => {
    const inst = sampleOne(task, {}, 1);
    for (const bad of [undefined, null, 'U D', {}, [[1]], [undefined]] as unknown[]) {
      const r = task.verify(inst, bad as number[]);
      expect(r.reward).toBe(0);
      expect(task.signature(inst, bad as number[])).toBeTypeOf('string');
      expect(task.errorSignature(inst, bad as number[])).toBeTypeOf('string');
    }
    // A hand-broken instance must not make the verifier throw either.
    const broken = { ...inst, params: { ...inst.params, size: 'x', group: 'nope' } } as TaskInstance;
    expect(task.verify(broken, inst.answerTokens).reward).toBeGreaterThanOrEqual(0);
  });

  it('gives the same instances for the same seed', () => {
    fc.assert(
      fc.property(params, seed, (raw, s) => {
        const draw = (): TaskInstance[] => {
          const rng = makeRng(s, STREAM.tasks);
          const p = parseParams(task, raw);
          return [0, 1, 2].map(() => task.sample(rng, p));
        };
        expect(draw()).toEqual(draw());
      }),
      { numRuns: 15 },
    );
  });

  it('rebuilds an identical instance from its JSON', () => {
    fc.assert(
      fc.property(params, seed, (raw, s) => {
        const inst = sampleOne(task, raw, s);
        const json = JSON.parse(JSON.stringify(inst));
        expect(task.fromJSON(json)).toEqual(inst);
        expect(instanceFromJSON(json)).toEqual(inst);
      }),
      { numRuns: RUNS },
    );
  });

  it('is found by getTask', () => {
    expect(getTask(name)).toBe(task);
  });
});

it('getTask names the allowed tasks for an unknown name', () => {
  expect(() => getTask('chess')).toThrow('unknown task "chess"; allowed: groupmul, maze, sort, subsetsum');
});

it('instanceFromJSON names the task field when it is missing', () => {
  expect(() => instanceFromJSON({ chain: [1] })).toThrow(/instance\.task must be one of/);
  expect(() => instanceFromJSON(null)).toThrow(/instance\.task/);
});
