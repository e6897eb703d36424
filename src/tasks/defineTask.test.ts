import { describe, expect, it } from 'vitest';
import { makeRng } from '../core/random';
import { defineTask, type InstanceBody } from './defineTask';
import { asIntArray } from './instanceJson';
import { BOS, EOS, NUM_SPECIAL, SEP, type TaskInstance } from './types';
import { withSpecials } from './tokens';

// A toy task: copy k letters. `echo` = 'fixed' has the environment write every other letter.
type CopyParams = { length: number; echo: string };
interface CopyInstance extends TaskInstance {
  params: CopyParams;
  letters: number[];
}

const letter = (x: number): number => NUM_SPECIAL + x;

function build(p: CopyParams, letters: number[]): InstanceBody<CopyInstance> {
  const answerTokens = [...letters.map(letter), EOS];
  const fixed = p.echo === 'fixed' ? answerTokens.map((t, i) => (i % 2 === 1 ? t : null)) : undefined;
  return { promptTokens: [BOS, ...letters.map(letter), SEP], answerTokens, ...(fixed && { fixed }), letters };
}

const copyTask = defineTask<CopyParams, CopyInstance, number[]>({
  name: 'copy',
  summary: 'Copy the letters.',
  params: [
    { name: 'length', kind: 'int', default: 3, min: 1, max: 8, doc: 'Letters to copy.' },
    { name: 'echo', kind: 'enum', default: 'free', values: ['free', 'fixed'], doc: 'Who writes every other letter.' },
  ],
  display: {},
  vocab: () => withSpecials(['a', 'b', 'c']),
  shape: (p) => ({ promptLength: p.length + 2, completionLength: p.length + 1 }),
  instances: {
    draw: (rng, p) => Array.from({ length: p.length }, () => rng.int(3)),
    read: (json, p) => asIntArray(json.letters, 'instance.letters', 0, 3, p.length),
    build,
  },
  verify: (inst, c) => {
    if (c.length === 0) throw new Error('nothing written');
    const correct = inst.answerTokens.every((t, i) => c[i] === t);
    return { reward: correct ? 1 : 0, correct, details: {} };
  },
  signature: (_, c) => c.join(','),
  errorSignature: () => 'other',
});

describe('defineTask', () => {
  it('samples with parsed parameters and adds the shared fields before the task’s own', () => {
    const inst = copyTask.sample(makeRng(1, 1), { length: '2' } as unknown as CopyParams);
    expect(Object.keys(inst)).toEqual([
      'task',
      'params',
      'promptTokens',
      'promptText',
      'completionLength',
      'fixed',
      'answerTokens',
      'answerText',
      'letters',
    ]);
    expect(inst).toMatchObject({ task: 'copy', params: { length: 2, echo: 'free' }, completionLength: 3 });
    expect(inst.fixed).toEqual([null, null, null]);
    expect(inst.promptText).toBe(['<bos>', ...inst.letters.map((x) => 'abc'[x]), '<sep>'].join(' '));
    expect(inst.answerText.endsWith('<eos>')).toBe(true);
    expect(() => copyTask.sample(makeRng(1, 1), { size: 2 } as unknown as CopyParams)).toThrow(
      'copy has no parameter "size"; allowed: length, echo',
    );
  });

  it('keeps the template a build writes', () => {
    const inst = copyTask.sample(makeRng(2, 1), { length: 4, echo: 'fixed' });
    expect(inst.fixed.map((t) => t !== null)).toEqual([false, true, false, true, false]);
  });

  it('reads an instance back from its JSON, and names the field that is wrong', () => {
    const inst = copyTask.sample(makeRng(3, 1), { length: 3, echo: 'fixed' });
    expect(copyTask.fromJSON(JSON.parse(JSON.stringify(inst)))).toEqual(inst);
    expect(copyTask.fromJSON({ task: 'copy', letters: [2, 0, 1] }).answerText).toBe('c a b <eos>');
    expect(() => copyTask.fromJSON({ task: 'sort', letters: [0] })).toThrow('instance.task must be "copy", got "sort"');
    expect(() => copyTask.fromJSON({ task: 'copy', params: 3 })).toThrow('instance.params must be an object');
    expect(() => copyTask.fromJSON({ task: 'copy', letters: [0, 9, 1] })).toThrow(/instance\.letters\[1\]/);
  });

  it('makes the verifier total', () => {
    const inst = copyTask.sample(makeRng(4, 1), { length: 2, echo: 'free' });
    expect(copyTask.verify(inst, [])).toEqual({ reward: 0, correct: false, details: { error: 'nothing written' } });
    expect(copyTask.verify(inst, inst.answerTokens).correct).toBe(true);
  });
});
