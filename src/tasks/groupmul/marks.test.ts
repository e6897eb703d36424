import { describe, expect, it } from 'vitest';
import { groupmulTask, type GroupMulInstance, type GroupMulParams } from '.';
import { makeRng } from '../../core/random';
import { EOS, NUM_SPECIAL } from '../types';
import { alignment, markScratchpad, scratchTargets } from './marks';

const settings: GroupMulParams[] = [
  { group: 'S3', length: 5, scratch: 0, layout: 'interleaved', reward: 'last' },
  { group: 'S3', length: 6, scratch: 3, layout: 'block', reward: 'last' },
  { group: 'D4', length: 4, scratch: 0, layout: 'block', reward: 'dense' },
  { group: 'quasi5', length: 5, scratch: 0, layout: 'interleaved', reward: 'dense' },
];

describe('running-product marking', () => {
  it('y positions and targets come from the template and the task', () => {
    const inst = groupmulTask.sample(makeRng(1, 1), settings[0]);
    const t = scratchTargets(inst);
    expect(t.positions).toEqual([0, 2, 4, 6, 8]);
    expect(t.prefixLengths).toEqual([1, 2, 3, 4, 5]);
    expect(t.targets.map((e) => NUM_SPECIAL + e)).toEqual(t.positions.map((p) => inst.answerTokens[p]));
    const block = groupmulTask.sample(makeRng(1, 1), settings[1]);
    expect(scratchTargets(block)).toMatchObject({ positions: [0, 1, 2], prefixLengths: [2, 4, 6] });
  });

  it('the answer matches everywhere', () => {
    const rng = makeRng(2, 1);
    for (const p of settings) {
      const inst = groupmulTask.sample(rng, p);
      const marks = markScratchpad(inst, inst.answerTokens);
      expect(marks.every((m) => m.mark === 'match')).toBe(true);
      expect(alignment(marks)).toBe(1);
    }
  });

  it('agrees with the verifier on random completions (prefix matches, correctness)', () => {
    const rng = makeRng(3, 1);
    for (let i = 0; i < 200; i++) {
      const p = settings[i % settings.length];
      const inst: GroupMulInstance = groupmulTask.sample(rng, p);
      const V = groupmulTask.vocab(p).length;
      // Mix of the answer, other elements, EOS and garbage ids.
      const comp = inst.answerTokens.map((t) => {
        const u = rng.next();
        return u < 0.5 ? t : u < 0.9 ? NUM_SPECIAL + rng.int(V - NUM_SPECIAL) : u < 0.95 ? EOS : rng.int(V + 3) - 1;
      });
      const marks = markScratchpad(inst, comp);
      const v = groupmulTask.verify(inst, comp);
      expect(marks.filter((m) => m.mark === 'match').length).toBe(v.details.prefixMatches);
      expect(marks[marks.length - 1].mark === 'match').toBe(v.correct);
    }
  });

  it("an EOS cuts the scratchpad: later y's are missing", () => {
    const inst = groupmulTask.sample(makeRng(4, 1), settings[0]);
    const comp = [...inst.answerTokens];
    comp[3] = EOS; // an x position
    expect(markScratchpad(inst, comp).map((m) => m.mark)).toEqual(['match', 'match', 'missing', 'missing', 'missing']);
  });
});
