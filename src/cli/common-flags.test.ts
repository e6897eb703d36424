// Every command and bench suite takes a shared flag (src/core/common-flags.ts) as its one spec:
// the same kind, the same closed list, the shared prose first (a command may add a note after it).

import { describe, expect, it } from 'vitest';
import { COMMON_FLAGS, type CommonFlag } from '../core/common-flags';
import type { FlagSpec } from '../core/flags';
import { PRESET_NAMES } from '../lessons/presets';
import { learningSuite } from '../bench/learning';
import { soakSuite } from '../bench/soak';
import { COMMAND_FLAGS } from './completion';

const ALL: [string, Readonly<Record<string, FlagSpec>>][] = [
  ...Object.entries(COMMAND_FLAGS).flatMap(([name, { specs }]) => specs.map((s): [string, typeof s] => [name, s])),
  ['bench learning', learningSuite.flags ?? {}],
  ['bench soak', soakSuite.flags ?? {}],
];

describe('shared CLI flags', () => {
  it('are the shared spec wherever a command or suite takes one', () => {
    let uses = 0;
    for (const [command, spec] of ALL) {
      for (const [name, s] of Object.entries(spec)) {
        if (!(name in COMMON_FLAGS)) continue;
        const common: FlagSpec = COMMON_FLAGS[name as CommonFlag];
        uses++;
        expect(s.kind, `${command} --${name}`).toBe(common.kind);
        expect(s.doc.startsWith(common.doc), `${command} --${name}: ${s.doc}`).toBe(true);
        expect(s.values, `${command} --${name}`).toEqual(name === 'preset' ? PRESET_NAMES : common.values);
      }
    }
    expect(uses).toBeGreaterThan(40);
  });

  it('cover backend, out and json in every command that has them', () => {
    const having = (flag: string) => ALL.filter(([, s]) => flag in s).map(([c]) => c);
    expect(having('backend')).toEqual(['forward', 'train', 'eval', 'sweep', 'sweep']);
    expect(having('out')).toEqual(['init', 'train', 'reference', 'sweep', 'sweep', 'report']);
    expect(having('json')).toHaveLength(8);
  });
});
