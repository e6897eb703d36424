// Your own code in a run's config (docs/custom-estimators.md): the two kinds (an estimator and a
// reward shaping), the knob and function each needs, the templates a new one starts from, and
// which of a config's code runs. The worked examples are in code-examples.ts.

/** The two kinds of code a run may carry: an advantage estimator and a reward shaping. */
export const CODE_KINDS = ['estimator', 'reward'] as const;
export type CodeKind = (typeof CODE_KINDS)[number];

/** The knob holding each kind's source, and the function the source must define. */
export const CODE_KNOB: Readonly<Record<CodeKind, 'customEstimator' | 'customReward'>> = {
  estimator: 'customEstimator',
  reward: 'customReward',
};
export const CODE_FUNCTION: Readonly<Record<CodeKind, 'advantages' | 'rewards'>> = {
  estimator: 'advantages',
  reward: 'rewards',
};
/** How messages name each kind ("your estimator, line 3: …"). */
export const CODE_NAME: Readonly<Record<CodeKind, string>> = {
  estimator: 'your estimator',
  reward: 'your reward shaping',
};

/** The longest source a config may carry (a URL must still hold it). */
export const MAX_CODE_LENGTH = 20_000;

/** The starting point of a new estimator: GRPO, written out, with the place to change marked. */
export const ESTIMATOR_TEMPLATE = `// Your advantage estimator: one step's rollouts in, one advantage per completion out.
// batch: B prompts x G completions (completion i = b*G + g), T completion positions;
//   rewards [N], correct [N] (0/1), lengths [N], mask and entropy [N*T],
//   signatures, errorSignatures [N], promptKeys [B], step (1, 2, ...).
// Return N numbers (spread over the tokens by the token-credit knob) or N*T (one per token).
// This template is GRPO; change a line and compare it with the built-in over seeds.

function advantages(batch) {
  const { B, G, rewards } = batch;
  const out = new Float64Array(B * G);
  for (let b = 0; b < B; b++) {
    const start = b * G;
    let equal = true;
    for (let g = 1; g < G; g++) if (rewards[start + g] !== rewards[start]) equal = false;
    if (equal) continue; // no spread, no signal: exactly 0
    let sum = 0;
    for (let g = 0; g < G; g++) sum += rewards[start + g];
    const mean = sum / G;
    let ss = 0;
    for (let g = 0; g < G; g++) ss += (rewards[start + g] - mean) * (rewards[start + g] - mean);
    const std = G > 1 ? Math.sqrt(ss / (G - 1)) : 0;
    for (let g = 0; g < G; g++) out[start + g] = (rewards[start + g] - mean) / (std + 1e-4);
  }
  return out;
}
`;

/** The starting point of a reward shaping: the verifier's reward, with a small length cost. */
export const REWARD_TEMPLATE = `// Your reward shaping: the verifier's results in, one reward per completion out.
// batch: B prompts x G completions (completion i = b*G + g), T completion positions;
//   rewards [N] (the verifier's), correct [N] (0/1), lengths [N],
//   signatures, errorSignatures [N], completions [N] (each a list of token strings),
//   prompts [B] (the prompt text), promptKeys [B], step (1, 2, ...).
// Return N finite numbers: the rewards the estimator sees.

function rewards(batch) {
  const { N, T, rewards, lengths } = batch;
  const out = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    // The verifier's reward, less a small cost per token written.
    out[i] = rewards[i] - 0.01 * (lengths[i] / T);
  }
  return out;
}
`;

/** The template of each kind. */
export const CODE_TEMPLATE: Readonly<Record<CodeKind, string>> = {
  estimator: ESTIMATOR_TEMPLATE,
  reward: REWARD_TEMPLATE,
};

/** The code a config runs: its estimator's when estimator = custom, its shaping's when rewardShaping = custom. */
export function activeCode(config: {
  estimator: string;
  rewardShaping: string;
  customEstimator: string;
  customReward: string;
}): Partial<Record<CodeKind, string>> {
  const out: Partial<Record<CodeKind, string>> = {};
  if (config.estimator === 'custom') out.estimator = config.customEstimator;
  if (config.rewardShaping === 'custom') out.reward = config.customReward;
  return out;
}

/** The 1-based line on which `source` defines the function its kind needs (1 when not found). */
export function functionLine(source: string, kind: CodeKind): number {
  const name = CODE_FUNCTION[kind];
  const lines = source.split('\n');
  const re = new RegExp(`(function\\s*\\*?\\s*${name}\\b|\\b(const|let|var)\\s+${name}\\s*=)`);
  const i = lines.findIndex((l) => re.test(l));
  return i < 0 ? 1 : i + 1;
}
