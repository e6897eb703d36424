// Every built-in base estimator written as an example against your estimator's interface, and the
// reward shapings' examples (docs/custom-estimators.md). These are plain strings, data like
// presets: the trainer compiles them in a sandbox (src/rl/custom), the page shows them in its code
// panel, and src/rl/custom/examples.test.ts checks that each example reproduces its built-in bit
// for bit.

import type { Estimator } from './estimator-names';
import { ESTIMATOR_TEMPLATE, REWARD_TEMPLATE, type CodeKind } from './user-code';

export interface CodeExample {
  readonly id: string;
  readonly kind: CodeKind;
  readonly title: string;
  /** The built-in estimator it reproduces (examples.test.ts holds it to that, bit for bit). */
  readonly builtin?: Estimator;
  readonly source: string;
}

const GRPO_SOURCE = `// GRPO (Shao et al. 2024): A_i = (r_i - mean of the group) / (its sample std + 1e-4),
// exactly the built-in estimator "grpo". Groups whose rewards are all equal get exactly 0.
// SCALE is the grpoScale knob: 'group' (GRPO), 'batch' (the batch's std), 'none' (Dr. GRPO).
const SCALE = 'group';
const EPS = 1e-4;

function mean(x, start, end) {
  let s = 0;
  for (let i = start; i < end; i++) s += x[i];
  return end > start ? s / (end - start) : 0;
}

function sampleStd(x, start, end) {
  const n = end - start;
  if (n < 2) return 0;
  const m = mean(x, start, end);
  let ss = 0;
  for (let i = start; i < end; i++) ss += (x[i] - m) * (x[i] - m);
  return Math.sqrt(ss / (n - 1));
}

function allEqual(x, start, end) {
  for (let i = start + 1; i < end; i++) if (x[i] !== x[start]) return false;
  return true;
}

function advantages(batch) {
  const { B, G, rewards } = batch;
  const out = new Float64Array(B * G);
  const batchStd = SCALE === 'batch' ? sampleStd(rewards, 0, B * G) : 0;
  for (let b = 0; b < B; b++) {
    const start = b * G;
    if (allEqual(rewards, start, start + G)) continue;
    const m = mean(rewards, start, start + G);
    const denom = SCALE === 'none' ? 1 : (SCALE === 'batch' ? batchStd : sampleStd(rewards, start, start + G)) + EPS;
    for (let g = 0; g < G; g++) out[start + g] = (rewards[start + g] - m) / denom;
  }
  return out;
}
`;

/** The lesson's one-line change of GRPO: no division by the group's spread. */
export const GRPO_NO_STD_SOURCE = GRPO_SOURCE.replace(
  /^\/\/ GRPO [^\n]*\n\/\/ exactly[^\n]*\n/,
  "// GRPO without the division by the group's spread: the one line marked below changed.\n// (It computes what grpoScale = none, Dr. GRPO's advantage, computes.)\n",
).replace(
  "    const denom = SCALE === 'none' ? 1 : (SCALE === 'batch' ? batchStd : sampleStd(rewards, start, start + G)) + EPS;",
  "    const denom = 1; // was: the group's sample std + EPS",
);

export const CODE_EXAMPLES: readonly CodeExample[] = [
  { id: 'template', kind: 'estimator', title: 'Template (GRPO, written out)', source: ESTIMATOR_TEMPLATE },
  {
    id: 'reinforce',
    kind: 'estimator',
    title: 'REINFORCE',
    builtin: 'reinforce',
    source: `// REINFORCE (Williams 1992): A_i = r_i, exactly the built-in estimator "reinforce".
// Not group-relative: a group whose rewards are all 1 still gets a positive advantage.

function advantages(batch) {
  return Float64Array.from(batch.rewards);
}
`,
  },
  {
    id: 'reinforce_baseline',
    kind: 'estimator',
    title: 'REINFORCE with a baseline',
    builtin: 'reinforce_baseline',
    source: `// REINFORCE with a batch-mean baseline: A_i = r_i - (mean of all N rewards),
// exactly the built-in estimator "reinforce_baseline".

function advantages(batch) {
  const { rewards } = batch;
  let s = 0;
  for (let i = 0; i < rewards.length; i++) s += rewards[i];
  const m = rewards.length > 0 ? s / rewards.length : 0;
  return Float64Array.from(rewards, (r) => r - m);
}
`,
  },
  {
    id: 'rloo',
    kind: 'estimator',
    title: 'RLOO',
    builtin: 'rloo',
    source: `// RLOO (Kool et al. 2019; Ahmadian et al. 2024): A_i = r_i - (mean of the G - 1 other rewards
// of its group), exactly the built-in estimator "rloo". A group of one, or of equal rewards, gets 0.

function advantages(batch) {
  const { B, G, rewards } = batch;
  const out = new Float64Array(B * G);
  if (G < 2) return out;
  for (let b = 0; b < B; b++) {
    const start = b * G;
    let equal = true;
    for (let g = 1; g < G; g++) if (rewards[start + g] !== rewards[start]) equal = false;
    if (equal) continue;
    let sum = 0;
    for (let g = 0; g < G; g++) sum += rewards[start + g];
    for (let g = 0; g < G; g++) {
      const r = rewards[start + g];
      out[start + g] = r - (sum - r) / (G - 1);
    }
  }
  return out;
}
`,
  },
  { id: 'grpo', kind: 'estimator', title: 'GRPO (and Dr. GRPO: SCALE = none)', builtin: 'grpo', source: GRPO_SOURCE },
  {
    id: 'grpo-no-std',
    kind: 'estimator',
    title: 'GRPO without the std division (the lesson)',
    source: GRPO_NO_STD_SOURCE,
  },
  {
    id: 'softmax_grpo',
    kind: 'estimator',
    title: 'SoftmaxGRPO',
    builtin: 'softmax_grpo',
    source: `// SoftmaxGRPO (docs/methods.md): A_i = G * softmax(r / TAU)_i - 1 within each group,
// exactly the built-in estimator "softmax_grpo" (TAU is the softmaxTau knob).
// Computed as exp((r - max r) / TAU), so it never overflows.
const TAU = 0.5;

function advantages(batch) {
  const { B, G, rewards } = batch;
  const out = new Float64Array(B * G);
  for (let b = 0; b < B; b++) {
    const start = b * G;
    let max = -Infinity;
    for (let g = 0; g < G; g++) max = Math.max(max, rewards[start + g]);
    const e = new Float64Array(G);
    let z = 0;
    for (let g = 0; g < G; g++) z += e[g] = Math.exp((rewards[start + g] - max) / TAU);
    for (let g = 0; g < G; g++) out[start + g] = (G * e[g]) / z - 1;
  }
  return out;
}
`,
  },
  {
    id: 'passk',
    kind: 'estimator',
    title: 'pass@k',
    builtin: 'passk',
    source: `// Pass@k training, analytic form (Chen et al. 2025), exactly the built-in estimator "passk"
// (K is the passK knob, at most G). With c correct of n = G: Rbar = 1 - C(n-c,k)/C(n,k),
// sigma = sqrt(Rbar (1 - Rbar)); a correct completion gets (1 - Rbar)/sigma, an incorrect one
// (1 - Rbar - C(n-c-1,k-1)/C(n-1,k-1))/sigma; all 0 when sigma = 0. It reads correct, not rewards.
const K = 4;

// C(n-c, k) / C(n, k) as a product of ratios: k draws from n all miss the c correct ones.
function allMiss(n, c, k) {
  if (n - c < k) return 0;
  let p = 1;
  for (let j = 0; j < k; j++) p *= (n - c - j) / (n - j);
  return p;
}

function advantages(batch) {
  const { B, G, correct } = batch;
  if (K > G) throw new RangeError('K must be at most G = ' + G);
  const out = new Float64Array(B * G);
  for (let b = 0; b < B; b++) {
    const start = b * G;
    let c = 0;
    for (let g = 0; g < G; g++) if (correct[start + g]) c++;
    const rBar = 1 - allMiss(G, c, K);
    const sigma = Math.sqrt(rBar * (1 - rBar));
    if (!(sigma > 0)) continue;
    const aCorrect = (1 - rBar) / sigma;
    const aWrong = (1 - rBar - allMiss(G - 1, c, K - 1)) / sigma;
    for (let g = 0; g < G; g++) out[start + g] = correct[start + g] ? aCorrect : aWrong;
  }
  return out;
}
`,
  },
  {
    id: 'mapp',
    kind: 'estimator',
    title: 'MaPP (its advantage; state kept between steps)',
    builtin: 'mapp',
    source: `// MaPP (docs/methods.md): a Beta(alpha, beta) posterior over each prompt's pass rate, and
// A_i = sum over k of P(k) * A_GRPO(own outcome | k of the G - 1 peers succeed), with
// k ~ BetaBinomial(G - 1, alpha, beta). The advantage of the built-in estimator "mapp", given
// the same prompts; the built-in also picks its prompts by the posterior, which code cannot.
// State outside the function lives as long as the run (it is not saved in checkpoints).
const EPS = 1e-4;
const posteriors = new Map(); // prompt key -> [alpha, beta], prior Beta(1, 1)

function binaryGrpo(success, m, G) {
  if (m <= 0 || m >= G) return 0;
  const std = Math.sqrt((m * (G - m)) / (G * (G - 1)));
  return ((success ? 1 : 0) - m / G) / (std + EPS);
}

// BetaBinomial(n, a, b) from the ratio P(k+1)/P(k), in log space.
function betaBinomial(n, a, b) {
  const logP = new Float64Array(n + 1);
  for (let k = 0; k < n; k++) logP[k + 1] = logP[k] + Math.log((n - k) / (k + 1)) + Math.log((k + a) / (n - k - 1 + b));
  let max = -Infinity;
  for (const v of logP) max = Math.max(max, v);
  let z = 0;
  const p = new Float64Array(n + 1);
  for (let k = 0; k <= n; k++) z += p[k] = Math.exp(logP[k] - max);
  for (let k = 0; k <= n; k++) p[k] /= z;
  return p;
}

function advantages(batch) {
  const { B, G, correct, promptKeys } = batch;
  const out = new Float64Array(B * G);
  for (let b = 0; b < B; b++) {
    const [a, bb] = posteriors.get(promptKeys[b]) ?? [1, 1];
    const pk = betaBinomial(G - 1, a, bb);
    let aSuccess = 0;
    let aFailure = 0;
    for (let k = 0; k <= G - 1; k++) {
      aSuccess += pk[k] * binaryGrpo(true, k + 1, G);
      aFailure += pk[k] * binaryGrpo(false, k, G);
    }
    for (let g = 0; g < G; g++) out[b * G + g] = correct[b * G + g] >= 0.5 ? aSuccess : aFailure;
  }
  // Only now learn from this step's outcomes: a group's own results must not inform its advantage.
  for (let b = 0; b < B; b++) {
    let s = 0;
    for (let g = 0; g < G; g++) if (correct[b * G + g]) s++;
    const [a, bb] = posteriors.get(promptKeys[b]) ?? [1, 1];
    posteriors.set(promptKeys[b], [a + s, bb + (G - s)]);
  }
  return out;
}
`,
  },
  {
    id: 'avspo',
    kind: 'estimator',
    title: 'AVSPO (virtual samples in all-equal groups)',
    builtin: 'avspo',
    source: `// AVSPO (the advantage-collapse-rate paper, docs/methods.md; a reading), exactly the built-in
// estimator "avspo" (V is the avspoVirtual knob). A group whose rewards are all equal gets V
// virtual samples of the opposite outcome (1 when its reward is below 0.5, else 0), and its
// completions get the GRPO advantage over those G + V rewards; groups with spread get GRPO's.
const V = 1;
const EPS = 1e-4;

function advantages(batch) {
  const { B, G, rewards } = batch;
  const out = new Float64Array(B * G);
  for (let b = 0; b < B; b++) {
    const start = b * G;
    let equal = true;
    for (let g = 1; g < G; g++) if (rewards[start + g] !== rewards[start]) equal = false;
    if (equal) {
      if (V === 0) continue;
      const r = rewards[start];
      const rv = r < 0.5 ? 1 : 0;
      const n = G + V;
      const m = (G * r + V * rv) / n;
      const std = n > 1 ? Math.sqrt((G * (r - m) ** 2 + V * (rv - m) ** 2) / (n - 1)) : 0;
      const a = (r - m) / (std + EPS);
      for (let g = 0; g < G; g++) out[start + g] = a;
      continue;
    }
    let sum = 0;
    for (let g = 0; g < G; g++) sum += rewards[start + g];
    const mean = sum / G;
    let ss = 0;
    for (let g = 0; g < G; g++) ss += (rewards[start + g] - mean) * (rewards[start + g] - mean);
    const std = Math.sqrt(ss / (G - 1));
    for (let g = 0; g < G; g++) out[start + g] = (rewards[start + g] - mean) / (std + EPS);
  }
  return out;
}
`,
  },
  {
    id: 'lampo',
    kind: 'estimator',
    title: 'LamPO (pairwise gaps weighted by confidence)',
    builtin: 'lampo',
    source: `// LamPO's pairwise decomposed advantage (docs/methods.md; a reading), exactly the built-in
// estimator "lampo" (TAU is the lampoTau knob): A_i = (1/(G-1)) * sum over j of
// (r_i - r_j) * w_ij, with w_ij = 2 sigmoid(-sign(r_i - r_j) (l_i - l_j) / TAU) and l a
// completion's mean log-probability per policy token. Pairs the policy already ranks right
// weigh less; large TAU is RLOO.
const TAU = 1;

function advantages(batch) {
  const { B, G, T, rewards, logp, mask } = batch;
  const N = B * G;
  const out = new Float64Array(N);
  if (G < 2) return out;
  const ell = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    let s = 0;
    let n = 0;
    for (let t = 0; t < T; t++) {
      if (mask[i * T + t] !== 0) {
        s += logp[i * T + t];
        n++;
      }
    }
    ell[i] = n > 0 ? s / n : 0;
  }
  for (let b = 0; b < B; b++) {
    for (let g = 0; g < G; g++) {
      const i = b * G + g;
      let sum = 0;
      for (let h = 0; h < G; h++) {
        const j = b * G + h;
        const gap = rewards[i] - rewards[j];
        if (h === g || gap === 0) continue;
        const w = 2 / (1 + Math.exp((Math.sign(gap) * (ell[i] - ell[j])) / TAU));
        sum += gap * w;
      }
      out[i] = sum / (G - 1);
    }
  }
  return out;
}
`,
  },
  {
    id: 'gcs',
    kind: 'estimator',
    title: "GRPO with GCS's Gaussian group weight",
    source: `// GRPO with GCS's weight (Gaussian Curriculum Sampling, the EXPO paper, docs/methods.md; a
// reading): each group's advantages times exp(-(p - 0.5)^2 / (2 SIGMA^2)), p its share of
// correct completions, renormalised to mean 1 over the groups with any advantage. It computes
// what estimator = grpo with gcsSigma = SIGMA does; the knob applies the weight to any estimator.
const SIGMA = 0.25;
const EPS = 1e-4;

function grpo(rewards, B, G) {
  const out = new Float64Array(B * G);
  for (let b = 0; b < B; b++) {
    const start = b * G;
    let equal = true;
    for (let g = 1; g < G; g++) if (rewards[start + g] !== rewards[start]) equal = false;
    if (equal) continue;
    let sum = 0;
    for (let g = 0; g < G; g++) sum += rewards[start + g];
    const mean = sum / G;
    let ss = 0;
    for (let g = 0; g < G; g++) ss += (rewards[start + g] - mean) * (rewards[start + g] - mean);
    const std = Math.sqrt(ss / (G - 1));
    for (let g = 0; g < G; g++) out[start + g] = (rewards[start + g] - mean) / (std + EPS);
  }
  return out;
}

function advantages(batch) {
  const { B, G, rewards, correct } = batch;
  const out = grpo(rewards, B, G);
  const w = new Float64Array(B);
  let sum = 0;
  let live = 0;
  for (let b = 0; b < B; b++) {
    let c = 0;
    let any = false;
    for (let g = 0; g < G; g++) {
      if (correct[b * G + g]) c++;
      if (out[b * G + g] !== 0) any = true;
    }
    const p = c / G;
    w[b] = Math.exp(-((p - 0.5) ** 2) / (2 * SIGMA * SIGMA));
    if (any) {
      sum += w[b];
      live++;
    }
  }
  if (live === 0 || !(sum > 0)) return out;
  const mean = sum / live;
  for (let b = 0; b < B; b++) for (let g = 0; g < G; g++) out[b * G + g] *= w[b] / mean;
  return out;
}
`,
  },
  { id: 'reward-template', kind: 'reward', title: 'Template (a small length cost)', source: REWARD_TEMPLATE },
  {
    id: 'reward-verifier',
    kind: 'reward',
    title: "The verifier's reward, unchanged",
    source: `// The verifier's reward, unchanged: a run with this shaping is the run without one.

function rewards(batch) {
  return Float64Array.from(batch.rewards);
}
`,
  },
  {
    id: 'reward-binary',
    kind: 'reward',
    title: 'All or nothing: 1 when correct, else 0',
    source: `// All or nothing: 1 for a correct completion, 0 otherwise, whatever partial credit the
// verifier gave.

function rewards(batch) {
  return Float64Array.from(batch.correct, (c) => (c ? 1 : 0));
}
`,
  },
];

/** The examples of one kind, in menu order. */
export function examplesOf(kind: CodeKind): CodeExample[] {
  return CODE_EXAMPLES.filter((e) => e.kind === kind);
}

/** Sources shipped with the page (templates, examples, presets' code): they run without asking. */
export function isShippedCode(source: string): boolean {
  return CODE_EXAMPLES.some((e) => e.source === source);
}
