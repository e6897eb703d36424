import { describe, expect, it } from 'vitest';
import { warmStartText } from './TopBar';

describe('the warm start in the top bar', () => {
  it('is a phase of its own in the task\'s words: the base model learns to walk', () => {
    expect(warmStartText({ done: 120, of: 400, loss: 1.934 }, { task: 'maze', sftData: 'base' }))
      .toBe('the base model learns to walk (random legal walks, the goal never used): 120 / 400 (loss 1.93)');
    expect(warmStartText({ done: 5, of: 10, loss: 0.5 }, { task: 'sort', sftData: 'answers' }))
      .toBe('warm start on the reference answers: 5 / 10 (loss 0.50)');
  });
});
