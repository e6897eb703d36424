// The flags several commands share (`rlvr`'s commands and the bench suites), one spec each, so
// that `--backend`, `--out` or `--json` take the same kind of value and say the same thing
// wherever they appear. A command takes a shared flag as it is, or with a note on what it means
// there, after the shared prose: commonFlag('out', 'the ablation folder: …'). The preset flag's
// closed list of names is the lessons' (presetFlag, src/lessons/preset-flags.ts), which core cannot see.

import type { FlagSpec } from './flags';

export const COMMON_FLAGS = {
  backend: { kind: 'value', doc: 'gpu (default) or cpu (the slow reference engine)', values: ['gpu', 'cpu'] },
  out: { kind: 'value', doc: 'where to write the output' },
  json: { kind: 'switch', doc: 'print JSON instead of text' },
  preset: { kind: 'value', doc: 'a preset by name (each is a lesson: docs/lessons.md)' },
  set: { kind: 'multi', doc: 'override a knob, key=value (repeatable)' },
  steps: { kind: 'value', doc: 'RL steps per run' },
  seed: { kind: 'value', doc: 'random seed' },
  seeds: { kind: 'value', doc: 'seeds, one run each' },
  checkpoint: { kind: 'value', doc: 'a .safetensors file' },
  jobs: { kind: 'value', doc: 'runs at once on this machine (default 1)' },
  'emit-jobs': {
    kind: 'switch',
    doc: 'print one rlvr train command per run (and nothing else) instead of running them',
  },
  solved: { kind: 'value', doc: 'what "solved" means, METRIC>=TARGET, or none' },
  'solved-level': { kind: 'value', doc: 'count --solved only at this curriculum level or above' },
  metric: { kind: 'multi', doc: 'a metric to compare at the end (repeatable; the first is the main one)' },
} as const satisfies Record<string, FlagSpec>;

export type CommonFlag = keyof typeof COMMON_FLAGS;

/** The shared spec of `name`, its prose followed by `note` (what the flag means for this command) when given. */
export function commonFlag(name: CommonFlag, note?: string): FlagSpec {
  const spec: FlagSpec = COMMON_FLAGS[name];
  return { ...spec, doc: note ? `${spec.doc}; ${note}` : spec.doc };
}
