import { describe, expect, it } from 'vitest';
import { sortTask } from '../../tasks/sort';
import { EOS, NUM_SPECIAL, PAD } from '../../tasks/types';
import { fixtureRollout } from '../views/fixtures';
import { groupData } from '../answers';
import { testRollout } from '../answers/testRollout';
import { tokenMarks } from './tokenKey';

describe('the token key under the group', () => {
  it('a sorted answer that ends early: the padding after its end is untrained, keyed only when shown', () => {
    const inst = sortTask.fromJSON({
      task: 'sort',
      params: { length: 3, alphabet: 5, reward: 'exact' },
      input: [2, 0, 1],
    });
    const a = (s: string) => [...s].map((c) => NUM_SPECIAL + c.charCodeAt(0) - 97);
    const data = groupData(
      testRollout([inst], {
        completions: [
          [
            [...a('abc'), EOS],
            [...a('a'), EOS, PAD, PAD],
          ],
        ],
      }),
      0,
      'advantage',
    );
    expect(tokenMarks(data, false)).toEqual([]);
    expect(tokenMarks(data, true)).toContain('untrained');
  });

  it('an answer that is only its end token shows it, keyed ∅', () => {
    const inst = sortTask.fromJSON({
      task: 'sort',
      params: { length: 3, alphabet: 5, reward: 'exact' },
      input: [2, 0, 1],
    });
    const data = groupData(
      testRollout([inst], {
        completions: [
          [
            [EOS, PAD, PAD, PAD],
            [EOS, PAD, PAD, PAD],
          ],
        ],
      }),
      0,
      'advantage',
    );
    expect(tokenMarks(data, false)).toEqual(['empty']);
  });

  it('a chain whose y is an end or padding token is keyed ∅', () => {
    const r = fixtureRollout({
      task: 'groupmul',
      params: { group: 'S3', length: 4, scratch: 0, layout: 'interleaved', reward: 'last' },
      B: 1,
      G: 2,
      completion: (inst) => inst.answerTokens.map(() => PAD),
    });
    expect(tokenMarks(groupData(r, 0, 'advantage'), false)).toContain('empty');
  });
});
