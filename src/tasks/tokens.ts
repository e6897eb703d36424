// Token helpers shared by the tasks: text conversion, completion truncation, total verifiers.

import {
  EOS,
  SPECIAL_TOKENS,
  type Task,
  type TaskInstance,
  type TaskParams,
  type VerifyDetails,
  type VerifyResult,
} from './types';

/** Token texts joined by single spaces; ids outside the vocabulary show as `<?id>`. */
export function tokensToText(vocab: readonly string[], tokens: readonly number[]): string {
  return tokens.map((t) => (Number.isInteger(t) && t >= 0 && t < vocab.length ? vocab[t] : `<?${t}>`)).join(' ');
}

/**
 * Splits on whitespace; a text that is not in the vocabulary becomes -1 (a garbage id). With
 * `limit`, stops after that many tokens: a verifier reads only the completion region, so a
 * 50 MB line need not be split whole.
 */
export function textToTokens(vocab: readonly string[], text: string, limit = Infinity): number[] {
  const index = new Map(vocab.map((t, i) => [t, i] as const));
  const out: number[] = [];
  const word = /\S+/g;
  for (let m = word.exec(text); m !== null && out.length < limit; m = word.exec(text)) out.push(index.get(m[0]) ?? -1);
  return out;
}

/** Prefixes the special tokens to a task's own tokens. */
export function withSpecials(taskTokens: readonly string[]): string[] {
  return [...SPECIAL_TOKENS, ...taskTokens];
}

/** True when t is an integer id in [lo, hi). */
export function isIdIn(t: unknown, lo: number, hi: number): t is number {
  return typeof t === 'number' && Number.isInteger(t) && t >= lo && t < hi;
}

/**
 * The part of a completion a verifier reads: at most `regionLength` tokens, cut before the first
 * EOS (tokens after it are ignored). Non-arrays read as empty.
 */
export function completionContent(completion: unknown, regionLength: number): number[] {
  if (!Array.isArray(completion)) return [];
  const out: number[] = [];
  const n = Math.min(completion.length, regionLength);
  for (let i = 0; i < n; i++) {
    const t = completion[i];
    if (t === EOS) break;
    out.push(typeof t === 'number' ? t : -1);
  }
  return out;
}

/** Index of the first EOS within the region, or the region length when there is none. */
export function firstEos(completion: unknown, regionLength: number): number {
  if (!Array.isArray(completion)) return 0;
  const n = Math.min(completion.length, regionLength);
  for (let i = 0; i < n; i++) if (completion[i] === EOS) return i;
  return regionLength;
}

const clamp01 = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

/**
 * Makes a verifier total: a thrown error (e.g. from a hand-edited instance) becomes reward 0 with
 * the message in details, and the reward is clamped to [0, 1] (NaN → 0).
 */
export function totalVerify<I extends TaskInstance>(
  verify: (instance: I, completion: readonly number[]) => VerifyResult,
): (instance: I, completion: readonly number[]) => VerifyResult {
  return (instance, completion) => {
    try {
      const r = verify(instance, Array.isArray(completion) ? completion : []);
      return { reward: clamp01(r.reward), correct: r.correct === true, details: r.details };
    } catch (err) {
      const details: VerifyDetails = { error: err instanceof Error ? err.message : String(err) };
      return { reward: 0, correct: false, details };
    }
  };
}

/** Makes a string-valued function of a completion total ("error" when it throws). */
export function totalLabel<I>(
  fn: (instance: I, completion: readonly number[]) => string,
): (instance: I, completion: readonly number[]) => string {
  return (instance, completion) => {
    try {
      return fn(instance, Array.isArray(completion) ? completion : []);
    } catch {
      return 'error';
    }
  };
}

/** Makes a group-metrics function total (an empty record when it throws). */
export function totalMetrics<I>(
  fn: (instance: I, completions: readonly (readonly number[])[]) => Record<string, number>,
): (instance: I, completions: readonly (readonly number[])[]) => Record<string, number> {
  return (instance, completions) => {
    try {
      return fn(instance, Array.isArray(completions) ? completions : []);
    } catch {
      return {};
    }
  };
}

/** A task whose verifier, group metrics and labels never throw: each is made total as above. */
export function totalTask<P extends TaskParams, I extends TaskInstance>(task: Task<P, I>): Task<P, I> {
  const total: Task<P, I> = {
    ...task,
    verify: totalVerify(task.verify),
    signature: totalLabel(task.signature),
    errorSignature: totalLabel(task.errorSignature),
  };
  if (task.groupMetrics) total.groupMetrics = totalMetrics(task.groupMetrics);
  return total;
}
