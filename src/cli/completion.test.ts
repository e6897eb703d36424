// The bash completion script, run in bash: the completion function must answer as a user's
// <Tab> would see it, for a command, a flag of that command and a preset name.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bashCompletion, COMMAND_FLAGS, completionCommand } from './completion';
import { SUITE_NAMES } from '../ablation/methods-suite';
import { TASK_NAMES } from '../tasks/registry';
import { EVAL_FLAGS } from './eval-command';

const script = join(mkdtempSync(join(tmpdir(), 'rlvr-completion-')), 'rlvr.bash');
writeFileSync(script, bashCompletion());

/** What <Tab> offers after `words` (the last one being completed). */
function complete(...words: string[]): string[] {
  const line = `source '${script}'; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _rlvr; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync('bash', ['-c', line], { encoding: 'utf8' })
    .split('\n')
    .filter((s) => s.length > 0);
}

describe('rlvr completion bash', () => {
  it("completes commands, a command's own flags, and closed lists of values", () => {
    expect(complete('rlvr', 'tr')).toEqual(['train']);
    expect(complete('rlvr', 'train', '--pre')).toEqual(['--preset']);
    expect(complete('rlvr', 'train', '--preset', 'maze-b')).toEqual(['maze-base-rl']);
    expect(complete('rlvr', 'eval', '--backend', '')).toEqual(['gpu', 'cpu']);
    expect(complete('rlvr', 'tasks', 'sample', '--split', 'h')).toEqual(['heldout']);
    // Every eval flag, from its spec, and none of train's own.
    const evalFlags = complete('rlvr', 'eval', '--');
    for (const f of Object.keys(EVAL_FLAGS)) expect(evalFlags).toContain(`--${f}`);
    expect(evalFlags).not.toContain('--resume');
    expect(complete('rlvr', 'sweep', '--sl')).toEqual(['--slurm']);
    expect(complete('rlvr', 'sweep', '--suite', '')).toEqual([...SUITE_NAMES]);
  });

  it("derives every command's words from its specs: subcommands, flags and closed lists", () => {
    expect(complete('rlvr', 'tasks', '')).toEqual([
      'list',
      'sample',
      'verify',
      '--json',
      '--task',
      '--param',
      '--n',
      '--seed',
      '--split',
      '--help',
    ]);
    expect(complete('rlvr', 'tasks', 'sample', '--task', '')).toEqual([...TASK_NAMES]);
    for (const [command, { specs }] of Object.entries(COMMAND_FLAGS))
      for (const spec of specs)
        for (const [flag, s] of Object.entries(spec)) {
          expect(complete('rlvr', command, `--${flag}`), `${command} --${flag}`).toContain(`--${flag}`);
          if (s.values) expect(complete('rlvr', command, `--${flag}`, '')).toEqual([...s.values]);
        }
  });

  it('refuses a shell it does not know, by name', () => {
    expect(() => completionCommand(['zsh'], () => {})).toThrow(/completion: unknown shell "zsh"; allowed: bash/);
    const out: string[] = [];
    expect(completionCommand(['bash'], (s) => out.push(s))).toBe(0);
    expect(out.join('\n')).toContain('complete -F _rlvr rlvr');
  });
});
