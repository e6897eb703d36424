// `--estimator-file my.js` and `--reward-file shape.js` (rlvr train, rlvr sweep): a run's own code
// from a file (docs/custom-estimators.md). The file's text becomes the customEstimator or
// customReward knob, so it travels in config.json, the checkpoint's metadata and every child
// of a sweep exactly as read; rlvr train also turns it on (estimator=custom, rewardShaping=custom).

import { readFileSync } from 'node:fs';
import { CliError, type FlagSpec, type ParsedFlags } from '../core/flags';
import { CODE_KNOB, MAX_CODE_LENGTH, type CodeKind } from '../config/user-code';

export const CODE_FILE_FLAGS: Record<'estimator-file' | 'reward-file', FlagSpec> = {
  'estimator-file': {
    kind: 'value',
    doc: 'your advantage estimator, a .js or .ts file defining advantages(batch) (docs/custom-estimators.md); train sets estimator=custom',
  },
  'reward-file': {
    kind: 'value',
    doc: 'your reward shaping, a .js or .ts file defining rewards(batch); train sets rewardShaping=custom',
  },
};

const FLAG_KIND: Record<keyof typeof CODE_FILE_FLAGS, CodeKind> = {
  'estimator-file': 'estimator',
  'reward-file': 'reward',
};

/** The code files given, by kind, as read. */
export function readCodeFiles(f: ParsedFlags): Partial<Record<CodeKind, string>> {
  const out: Partial<Record<CodeKind, string>> = {};
  for (const flag of Object.keys(CODE_FILE_FLAGS) as (keyof typeof CODE_FILE_FLAGS)[]) {
    if (f[flag] === undefined) continue;
    const path = String(f[flag]);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      throw new CliError(`--${flag}: cannot read ${path}: ${(e as Error).message}`);
    }
    if (text.length > MAX_CODE_LENGTH)
      throw new CliError(
        `--${flag}: ${path} has ${text.length} characters; a run's code may have at most ${MAX_CODE_LENGTH}`,
      );
    out[FLAG_KIND[flag]] = text;
  }
  return out;
}

/** `--set` entries carrying the code (and, with `enable`, turning it on). */
export function codeSets(code: Partial<Record<CodeKind, string>>, enable: boolean): string[] {
  const sets: string[] = [];
  if (code.estimator !== undefined)
    sets.push(...(enable ? ['estimator=custom'] : []), `${CODE_KNOB.estimator}=${code.estimator}`);
  if (code.reward !== undefined)
    sets.push(...(enable ? ['rewardShaping=custom'] : []), `${CODE_KNOB.reward}=${code.reward}`);
  return sets;
}
