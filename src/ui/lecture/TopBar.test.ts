import { describe, expect, it } from 'vitest';
import { warmStartText, warmStartTitle } from './TopBar';

describe('the warm start in the top bar', () => {
  it("is a phase of its own in the task's words: the base model learns to walk", () => {
    // Short: it shares the top bar with the buttons; the rest is on hover.
    expect(warmStartText({ done: 120, of: 400, loss: 1.934 }, { task: 'maze', sftData: 'base' })).toBe(
      'base model learns to walk: 120 / 400',
    );
    expect(warmStartTitle({ loss: 1.934 }, { sftData: 'base' })).toBe(
      'supervised steps on base completions (plausible, uninformed by the reward) before RL; loss 1.93',
    );
    expect(warmStartText({ done: 5, of: 10, loss: 0.5 }, { task: 'sort', sftData: 'answers' })).toBe(
      'warm start: 5 / 10',
    );
  });
});
