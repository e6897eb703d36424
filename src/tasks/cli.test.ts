// The `rlvr tasks` command, called directly with a fake io.

import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { tasksCommand } from '../cli/tasks';
import { textToTokens } from './tokens';
import { TASK_NAMES } from './registry';

async function run(args: string[], stdin = ''): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await tasksCommand(args, {
    stdin: Readable.from([stdin]),
    stdout: (l) => out.push(l),
    stderr: (l) => err.push(l),
  });
  return { code, out, err };
}

describe('rlvr tasks list', () => {
  it('--json lists every task with its parameter specs', async () => {
    const { code, out } = await run(['list', '--json']);
    expect(code).toBe(0);
    const tasks = JSON.parse(out.join('\n'));
    expect(tasks.map((t: { name: string }) => t.name)).toEqual(TASK_NAMES);
    expect(tasks[0].params.find((p: { name: string }) => p.name === 'length')).toMatchObject({
      kind: 'int',
      default: 8,
      min: 1,
      max: 16,
    });
  });

  it('prints a readable table without --json', async () => {
    const { code, out } = await run(['list']);
    expect(code).toBe(0);
    expect(out.some((l) => l.startsWith('maze:'))).toBe(true);
  });
});

describe('rlvr tasks sample', () => {
  it('prints one JSON object per instance, the same for the same seed', async () => {
    const args = [
      'sample',
      '--task',
      'groupmul',
      '--param',
      'group=S4',
      '--param',
      'length=5',
      '--n',
      '3',
      '--seed',
      '7',
      '--json',
    ];
    const a = await run(args);
    const b = await run(args);
    expect(a.code).toBe(0);
    expect(a.out).toHaveLength(3);
    expect(a.out).toEqual(b.out);
    const line = JSON.parse(a.out[0]);
    expect(Object.keys(line)).toEqual(['instance', 'promptText', 'answerText', 'promptTokens', 'split', 'heldOutBy']);
    expect(line.instance).toMatchObject({ group: 'S4', chain: expect.any(Array), answer: expect.any(Number) });
    expect(line.instance.perms).toHaveLength(24);
    expect(line.instance.elementNames).toHaveLength(24);
    const c = await run([...args.slice(0, -3), '--seed=8', '--json']);
    expect(c.out).not.toEqual(a.out);
  });

  it('gives quasigroups a table and mazes a grid', async () => {
    const q = JSON.parse((await run(['sample', '--task=groupmul', '--param', 'group=quasi4', '--json'])).out[0]);
    expect(q.instance.table).toHaveLength(4);
    expect(q.instance.perms).toBeUndefined();
    const m = JSON.parse((await run(['sample', '--task', 'maze', '--param', 'size=4', '--json'])).out[0]);
    expect(m.instance).toMatchObject({ grid: expect.any(Array), start: expect.any(Array), goal: expect.any(Array) });
    expect(m.instance.shortest).toBeGreaterThanOrEqual(4);
  });

  it('rejects bad flags and parameters with exit code 2 and a message naming them', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['sample', '--task', 'groupmul', '--param', 'length=40'],
        /groupmul\.length must be an integer in \[1, 16\], got "40"/,
      ],
      [['sample', '--task', 'chess'], /unknown task "chess"; allowed: groupmul, maze, sort, subsetsum/],
      [['sample'], /--task is required/],
      [['sample', '--task', 'sort', '--bogus', '1'], /unknown flag --bogus/],
      [['sample', '--task', 'sort', '--n', '0'], /--n must be an integer in \[1, 100000\], got "0"/],
      [['sample', '--task', 'sort', '--seed', '-1'], /--seed needs a value|--seed must be/],
      [['sample', '--task', 'sort', '--param', 'length'], /--param must look like key=value/],
      [
        ['sample', '--task', 'sort', '--param', 'depth=3'],
        /sort has no parameter "depth"; allowed: length, alphabet, reward/,
      ],
      [['sample', '--task'], /--task needs a value/],
      [['frobnicate'], /unknown command "frobnicate"/],
      [[], /missing command/],
      [['list', '--json=yes'], /--json takes no value/],
    ];
    for (const [args, message] of cases) {
      const { code, err, out } = await run(args);
      expect(code, args.join(' ')).toBe(2);
      expect(err[0], args.join(' ')).toMatch(message);
      expect(out).toEqual([]);
    }
    expect((await run(['--help'])).code).toBe(0);
  });
});

describe('rlvr tasks verify', () => {
  it('scores each line, reports unparseable lines by number, and loses nothing else', async () => {
    const sampled = await run(['sample', '--task', 'maze', '--n', '2', '--seed', '3', '--json']);
    const [a, b] = sampled.out.map((l) => JSON.parse(l));
    const stdin = [
      JSON.stringify({ instance: a.instance, completionText: a.answerText }),
      '{oops',
      JSON.stringify({ instance: b.instance, completionText: 'U' }),
      '',
      JSON.stringify({
        instance: { task: 'groupmul', params: { group: 'Z5', length: 3 }, chain: [1, 2, 9] },
        completionText: 'r1',
      }),
      JSON.stringify({
        instance: { task: 'sort', params: { length: 3, alphabet: 4 }, input: [2, 0, 1] },
        completionText: 'a b c',
      }),
      JSON.stringify({ instance: b.instance, completionTokens: b.instance.answerTokens }),
      JSON.stringify({ instance: b.instance }),
      JSON.stringify({ instance: b.instance, completionText: 'U nonsense-token D' }),
    ].join('\n');
    const { code, out, err } = await run(['verify', '--json'], stdin);
    expect(out.map((l) => JSON.parse(l))).toEqual([
      { reward: 1, correct: true },
      { line: 2, error: expect.stringMatching(/^not valid JSON/) },
      { reward: 0, correct: false },
      { line: 5, error: 'instance.chain[2] must be an integer in [0, 5), got 9' },
      { reward: 1, correct: true },
      { reward: 1, correct: true },
      { line: 8, error: expect.stringMatching(/completionText must be a string/) },
      { reward: 0, correct: false },
    ]);
    expect(code).toBe(1);
    expect(err[0]).toMatch(/3 of 9 line\(s\)/);
  });

  it('a huge completion is verified on its completion region only (the rest is not tokenized)', async () => {
    const sampled = await run(['sample', '--task', 'sort', '--param', 'length=3', '--n', '1', '--seed', '2', '--json']);
    const a = JSON.parse(sampled.out[0]);
    // The answer (3 letters and EOS fill the region), then 2 million more tokens.
    const text = `${a.answerText} ${'b '.repeat(2_000_000)}`;
    const { out } = await run(['verify', '--json'], JSON.stringify({ instance: a.instance, completionText: text }));
    expect(JSON.parse(out[0])).toEqual({ reward: 1, correct: true });
    expect(textToTokens(['a', 'b', 'c'], 'a b zz c b', 3)).toEqual([0, 1, -1]);
  });

  it('exits 0 when every line verifies', async () => {
    const s = await run(['sample', '--task', 'subsetsum', '--n', '4', '--json']);
    const stdin = s.out
      .map((l) => JSON.parse(l))
      .map((x) => JSON.stringify({ instance: x.instance, completionText: x.answerText }))
      .join('\n');
    const { code, out } = await run(['verify', '--json'], stdin + '\n');
    expect(code).toBe(0);
    expect(out).toEqual(Array(4).fill('{"reward":1,"correct":true}'));
  });
});
