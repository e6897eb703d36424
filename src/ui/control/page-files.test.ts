import { describe, expect, it } from 'vitest';
import { trainedModelNotice } from './page-files';

describe('trainedModelNotice', () => {
  it('adds the step to a label that does not name it', () => {
    expect(trainedModelNotice('at length 3', 270)).toBe(
      'Loaded the trained model (at length 3, step 270). ▶ continues training it.',
    );
  });
  it('does not repeat a step the label already names', () => {
    expect(trainedModelNotice('step 750', 750)).toBe('Loaded the trained model (step 750). ▶ continues training it.');
    expect(trainedModelNotice('step 700, stuck at length 3', 700)).toBe(
      'Loaded the trained model (step 700, stuck at length 3). ▶ continues training it.',
    );
  });
  it('knows the step written with a thousands separator', () => {
    expect(trainedModelNotice('step 2,400', 2400)).toBe(
      'Loaded the trained model (step 2,400). ▶ continues training it.',
    );
    expect(trainedModelNotice('step 2,40', 2400)).toBe(
      'Loaded the trained model (step 2,40, step 2400). ▶ continues training it.',
    );
  });
  it('adds the step when the label names another one (step 75 is not step 750)', () => {
    expect(trainedModelNotice('step 75', 750)).toBe(
      'Loaded the trained model (step 75, step 750). ▶ continues training it.',
    );
  });
});
