// What the trainer's tests share: the knobs of the tiny run they train on the CPU engine (or the
// GPU's), applied by each test to sort-easy's config.

/** The tiny run's model and batch: 1 layer of width 8 with 2 heads, 4 prompts × 4 completions, no periodic evaluation. */
export const TINY_MODEL_BATCH = {
  'model.nEmbd': 8,
  'model.nLayer': 1,
  'model.nHead': 2,
  batchPrompts: 4,
  groupSize: 4,
  evalEvery: 0,
} as const;

/**
 * A tiny run: TINY_MODEL_BATCH, 2 epochs of 2 minibatches, a KL anchor (β 0.1, never re-synced)
 * and an entropy bonus (0.05), so every part of the update is exercised in well under a second a step.
 */
export const TINY_RUN = {
  ...TINY_MODEL_BATCH,
  epochs: 2,
  minibatches: 2,
  klBeta: 0.1,
  refSync: 'none',
  entropyAlpha: 0.05,
} as const;
