import { describe, it, expect } from 'vitest';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { metricsWithoutClock } from './run-folder-fixtures';
import { trainCommand } from './train-commands';
import { evalCommand } from './eval-command';
import { readSafetensors, writeSafetensors } from '../model/safetensors';
import { gpuIt } from '../gpu/testing';

// The CPU reference engine keeps these tests GPU-free; a tiny batch keeps them fast.
const small = [
  '--preset',
  'sort-easy',
  '--backend',
  'cpu',
  '--set',
  'batchPrompts=2',
  '--set',
  'groupSize=4',
  '--set',
  'evalEvery=0',
  '--seed',
  '3',
];

async function train(
  extra: string[],
  onLine?: (line: string) => void,
  dir = mkdtempSync(join(tmpdir(), 'rlvr-train-')),
): Promise<{ rc: number; dir: string; lines: string[] }> {
  const lines: string[] = [];
  const rc = await trainCommand(
    [...small, '--out', dir, '--json', ...extra],
    (s) => {
      lines.push(s);
      onLine?.(s);
    },
    () => {},
  );
  return { rc, dir, lines };
}

describe('rlvr train (cpu backend)', () => {
  it('writes config.json, one metrics line per step and a checkpoint; the same seed gives the same metrics', async () => {
    const a = await train(['--steps', '2']);
    expect(a.rc).toBe(0);
    const config = JSON.parse(readFileSync(join(a.dir, 'config.json'), 'utf8'));
    expect(config).toMatchObject({ seed: 3, steps: 2, batchPrompts: 2, groupSize: 4 });
    const metrics = readFileSync(join(a.dir, 'metrics.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(metrics.map((m) => m.step)).toEqual([1, 2]);
    expect(readSafetensors(readFileSync(join(a.dir, 'checkpoint.safetensors'))).runConfig).toMatchObject({
      trainedSteps: 2,
    });
    const b = await train(['--steps', '2']);
    expect(metricsWithoutClock(b.dir)).toEqual(metricsWithoutClock(a.dir));
  });

  it('on SIGINT stops after the current step, still writes the checkpoint, and exits 130 (a relayed repeat is the same request)', async () => {
    let sent = false;
    const r = await train(['--steps', '50'], () => {
      // Twice at once, as a terminal's Ctrl-C reaching npm and node both: the second must not
      // count as "quit at once" (that would exit this test process).
      if (!sent) {
        sent = true;
        process.emit('SIGINT', 'SIGINT');
        process.emit('SIGINT', 'SIGINT');
      }
    });
    expect(r.rc).toBe(130);
    const done = JSON.parse(r.lines.at(-1)!).done;
    expect(done).toMatchObject({ steps: 1, stoppedBy: 'SIGINT' });
    expect(readSafetensors(readFileSync(join(r.dir, 'checkpoint.safetensors'))).runConfig).toMatchObject({
      trainedSteps: 1,
    });
    expect(process.listenerCount('SIGINT')).toBe(0);
  });

  it('--checkpoint-every writes the checkpoint during the run; a bad value is named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlvr-train-'));
    const onDisk: Record<number, boolean> = {};
    const r = await train(
      ['--steps', '3', '--checkpoint-every', '2'],
      (line) => {
        const step = JSON.parse(line).step;
        if (step) onDisk[step] = existsSync(join(dir, 'checkpoint.safetensors'));
      },
      dir,
    );
    expect(r.rc).toBe(0);
    // Each line is printed before that step's checkpoint: the file first exists when step 3 is printed.
    expect(onDisk).toEqual({ 1: false, 2: false, 3: true });
    await expect(train(['--steps', '3', '--checkpoint-every', '-1'])).rejects.toThrowError(
      /--checkpoint-every must be an integer in \[0, 10000000\], got "-1"/,
    );
  });

  it('--config naming a directory or a missing file is a named error, not a stack trace', async () => {
    const d = mkdtempSync(join(tmpdir(), 'rlvr-cfg-'));
    await expect(
      trainCommand(
        ['--config', d, '--steps', '1', '--out', join(d, 'o')],
        () => {},
        () => {},
      ),
    ).rejects.toThrowError(new RegExp(`^--config: cannot read ${d}: EISDIR`));
    await expect(
      trainCommand(
        ['--config', join(d, 'nope.json'), '--steps', '1', '--out', join(d, 'o')],
        () => {},
        () => {},
      ),
    ).rejects.toThrowError(/^--config: cannot read .*nope\.json: ENOENT/);
  });

  it('eval refuses a checkpoint whose saved level or trainedSteps is out of range, naming it', async () => {
    const r = await train(['--steps', '1']);
    const path = join(r.dir, 'checkpoint.safetensors');
    const ck = readSafetensors(readFileSync(path));
    const bad = join(r.dir, 'bad-level.safetensors');
    writeFileSync(bad, writeSafetensors(ck.layout, ck.params, ck.vocab, { ...(ck.runConfig as object), level: 1e6 }));
    await expect(evalCommand(['--checkpoint', bad, '--backend', 'cpu'], () => {})).rejects.toThrowError(
      /run_config: level must be .*got 1000000/,
    );
    writeFileSync(
      bad,
      writeSafetensors(ck.layout, ck.params, ck.vocab, { ...(ck.runConfig as object), trainedSteps: -7 }),
    );
    await expect(evalCommand(['--checkpoint', bad, '--backend', 'cpu'], () => {})).rejects.toThrowError(
      /run_config: trainedSteps must be an integer in \[0, 10000000\], got -7/,
    );
  });

  it('--cell writes cell.json beside config.json (rlvr report groups by it); a run without it leaves none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlvr-train-'));
    expect((await train(['--steps', '1', '--cell', 'lr=0.01'], undefined, dir)).rc).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'cell.json'), 'utf8'))).toEqual({ cell: 'lr=0.01', preset: 'sort-easy' });
    expect((await train(['--steps', '1'], undefined, dir)).rc).toBe(0);
    expect(existsSync(join(dir, 'cell.json'))).toBe(false);
  });

  it('eval reads a checkpoint trained with a curriculum and a re-synced KL anchor (the cot-discovery shape)', async () => {
    const r = await train([
      '--steps',
      '1',
      '--set',
      'curriculum=pass-rate',
      '--set',
      'refSync=curriculum',
      '--set',
      'klBeta=0.5',
    ]);
    expect(r.rc).toBe(0);
    const lines: string[] = [];
    expect(
      await evalCommand(
        ['--checkpoint', join(r.dir, 'checkpoint.safetensors'), '--n', '6', '--backend', 'cpu', '--json'],
        (s) => lines.push(s),
      ),
    ).toBe(0);
    const result = JSON.parse(lines[0]);
    expect(result).toMatchObject({ task: 'sort', prompts: 6 });
    expect(result['pass@1']).toBeGreaterThanOrEqual(0);
    expect(result['pass@1']).toBeLessThanOrEqual(1);
  });

  it('eval --breaks on a groupmul checkpoint says where the greedy chains break (a table in text, chainBreaks in --json); other tasks are refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlvr-breaks-'));
    const cot = [
      '--preset',
      'cot-discovery',
      '--backend',
      'cpu',
      '--set',
      'task.length=3',
      '--set',
      'batchPrompts=2',
      '--set',
      'groupSize=4',
      '--set',
      'evalEvery=0',
      '--seed',
      '1',
    ];
    expect(
      await trainCommand(
        [...cot, '--steps', '1', '--out', dir, '--json'],
        () => {},
        () => {},
      ),
    ).toBe(0);
    const checkpoint = join(dir, 'checkpoint.safetensors');
    const text: string[] = [];
    expect(
      await evalCommand(['--checkpoint', checkpoint, '--n', '12', '--backend', 'cpu', '--breaks'], (s) => text.push(s)),
    ).toBe(0);
    expect(text[1]).toBe(
      'where the greedy chain first breaks (12 prompts, S3 length 3, interleaved, 3 scratchpad tokens):',
    );
    expect(text[2]).toMatch(/^ +first wrong +y1 +y2 +y3 +none$/);
    expect(text.join('\n')).toMatch(/wrong products collapsed/);
    const json: string[] = [];
    expect(
      await evalCommand(['--checkpoint', checkpoint, '--n', '12', '--backend', 'cpu', '--json'], (s) => json.push(s)),
    ).toBe(0);
    const result = JSON.parse(json[0]);
    const b = result.chainBreaks;
    expect(b).toMatchObject({
      group: 'S3',
      length: 3,
      scratch: 3,
      prompts: 12,
      correct: Math.round(result['pass@1'] * 12),
    });
    expect(b.unbroken + b.firstBreak.reduce((x: number, y: number) => x + y, 0)).toBe(12);
    // The text's counts are the JSON's.
    expect(text[3].trim().split(/ +/).slice(1).map(Number)).toEqual([...b.firstBreak, b.unbroken]);
    const sorted = await train(['--steps', '1']);
    await expect(
      evalCommand(
        ['--checkpoint', join(sorted.dir, 'checkpoint.safetensors'), '--backend', 'cpu', '--breaks'],
        () => {},
      ),
    ).rejects.toThrow(
      /--breaks: only groupmul and maze checkpoints have chains or walks to break; this one's task is sort/,
    );
  });

  it('eval --breaks on a maze checkpoint says where each greedy walk first goes wrong (text and walkBreaks in --json)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlvr-walks-'));
    const maze = [
      '--set',
      'task=maze',
      '--set',
      'task.size=3',
      '--set',
      'task.minDist=2',
      '--backend',
      'cpu',
      '--set',
      'batchPrompts=2',
      '--set',
      'groupSize=4',
      '--set',
      'evalEvery=0',
      '--set',
      'model.nEmbd=16',
      '--set',
      'model.nLayer=1',
      '--seed',
      '1',
    ];
    expect(
      await trainCommand(
        [...maze, '--steps', '1', '--out', dir, '--json'],
        () => {},
        () => {},
      ),
    ).toBe(0);
    const checkpoint = join(dir, 'checkpoint.safetensors');
    const text: string[] = [];
    expect(
      await evalCommand(['--checkpoint', checkpoint, '--n', '10', '--backend', 'cpu', '--breaks'], (s) => text.push(s)),
    ).toBe(0);
    expect(text[1]).toBe('where each greedy walk first goes wrong (10 mazes, 3×3):');
    const json: string[] = [];
    expect(
      await evalCommand(['--checkpoint', checkpoint, '--n', '10', '--backend', 'cpu', '--json'], (s) => json.push(s)),
    ).toBe(0);
    const result = JSON.parse(json[0]);
    const w = result.walkBreaks;
    expect(w).toMatchObject({ size: 3, prompts: 10, correct: Math.round(result['pass@1'] * 10) });
    const kinds = Object.values(w.kinds as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(w.unbroken + kinds).toBe(10);
    expect(w.byMove.reduce((a: number, b: number) => a + b, 0)).toBe(kinds);
    for (const p of Object.values(w.pRight as Record<string, number>)) expect(p).toBeGreaterThanOrEqual(0);
    expect(text[2]).toContain(`shortest path to the goal: ${w.unbroken} `);
    // BODHI's branching numbers from 8 sampled walks per maze.
    const bjson: string[] = [];
    expect(
      await evalCommand(
        ['--checkpoint', checkpoint, '--n', '10', '--backend', 'cpu', '--branching', '8', '--json'],
        (s) => bjson.push(s),
      ),
    ).toBe(0);
    const b = JSON.parse(bjson[0]).branching;
    expect(b).toMatchObject({ mazes: 10, walksPerMaze: 8 });
    expect(b.passAtK).toHaveLength(8);
    for (let k = 1; k < 8; k++) expect(b.passAtK[k]).toBeGreaterThanOrEqual(b.passAtK[k - 1]);
    expect(b.shortestFound).toBeGreaterThanOrEqual(0);
    expect(b.shortestFound).toBeLessThanOrEqual(1);
    const btext: string[] = [];
    expect(
      await evalCommand(['--checkpoint', checkpoint, '--n', '10', '--backend', 'cpu', '--branching', '8'], (s) =>
        btext.push(s),
      ),
    ).toBe(0);
    expect(btext[1]).toBe('branching over 8 sampled walks per maze (10 mazes):');
    const sorted = await train(['--steps', '1']);
    await expect(
      evalCommand(
        ['--checkpoint', join(sorted.dir, 'checkpoint.safetensors'), '--backend', 'cpu', '--branching', '8'],
        () => {},
      ),
    ).rejects.toThrow(/--branching: only maze checkpoints have walks to branch; this one's task is sort/);
  });

  it("eval --walks-out adds a checkpoint's distinct correct walks to one file, only on the same mazes, and refuses a file it did not write", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlvr-ways-'));
    // The lesson's step-3,600 model, so the mazes (held-out 4×4 ones) have correct, shortest and
    // wall-touching walks for the outside checker to recompute; an untrained model has almost none.
    copyFileSync(
      join('public', 'checkpoints', 'maze-base-rl-step3600.safetensors'),
      join(dir, 'checkpoint.safetensors'),
    );
    const checkpoint = join(dir, 'checkpoint.safetensors');
    const file = join(dir, 'walks.json');
    const judge = (...extra: string[]) =>
      evalCommand(
        [
          '--checkpoint',
          checkpoint,
          '--backend',
          'cpu',
          '--branching',
          '16',
          '--walks-out',
          file,
          ...(extra.includes('--n') ? [] : ['--n', '5']),
          ...extra,
        ],
        () => {},
      );
    expect(await judge('--walks-label', 'first')).toBe(0);
    expect(await judge('--walks-label', 'second')).toBe(0);
    expect(await judge('--walks-label', 'second')).toBe(0); // replaces, does not add
    const rec = JSON.parse(readFileSync(file, 'utf8'));
    expect(rec.kind).toBe('maze-walks');
    expect(rec.mazes).toHaveLength(5);
    expect(rec.models.map((m: { label: string }) => m.label)).toEqual(['first', 'second']);
    // The file names no folder of this machine.
    expect(rec.source).toContain('--checkpoint checkpoint.safetensors');
    expect(rec.source).not.toContain(dir);
    const m = rec.models[0];
    expect(m).toMatchObject({ checkpoint: 'checkpoint.safetensors', step: 3600, walksPerMaze: 16 });
    // Same seed, same mazes, same walks: both models drew the same samples.
    expect(rec.models[1].walks).toEqual(m.walks);
    // Each maze's correct walks: counts within G, distinct, the mean count of distinct ones is the summary's.
    for (const walks of m.walks as { moves: string; count: number }[][]) {
      expect(new Set(walks.map((w) => w.moves)).size).toBe(walks.length);
      expect(walks.reduce((a, w) => a + w.count, 0)).toBeLessThanOrEqual(16);
    }
    expect(m.walks.reduce((a: number, w: unknown[]) => a + w.length, 0) / 5).toBeCloseTo(m.distinctCorrect, 12);
    // An outside checker: every figure recomputed from the raw walks with its own simple code.
    recheckWalksFile(rec, 0);
    // Other mazes, no --branching, a file that is not one: refused, the file kept as it was.
    const before = readFileSync(file, 'utf8');
    await expect(judge('--n', '6')).rejects.toThrow(
      /--walks-out .*walks\.json: the file holds walks on 5 mazes and this checkpoint walks 6/,
    );
    await expect(judge('--seed', '7')).rejects.toThrow(/maze 1 differs from the file's/);
    expect(readFileSync(file, 'utf8')).toBe(before);
    await expect(
      evalCommand(['--checkpoint', checkpoint, '--backend', 'cpu', '--walks-out', file], () => {}),
    ).rejects.toThrow(/--walks-out: needs --branching G/);
    const notes = join(dir, 'notes.txt');
    writeFileSync(notes, 'my notes\n');
    const walksTo = (out: string) =>
      evalCommand(
        ['--checkpoint', checkpoint, '--n', '5', '--backend', 'cpu', '--branching', '4', '--walks-out', out],
        () => {},
      );
    await expect(walksTo(notes)).rejects.toThrow(
      /--walks-out .*notes\.txt: not JSON .*name a new file or a file this flag wrote/,
    );
    expect(readFileSync(notes, 'utf8')).toBe('my notes\n');
    writeFileSync(notes, '{"kind": "run"}');
    await expect(walksTo(notes)).rejects.toThrow(
      /--walks-out .*notes\.txt: not a maze walks file \(kind must be "maze-walks"\)/,
    );
    await expect(walksTo(dir)).rejects.toThrow(/--walks-out .*: cannot be read \(EISDIR\)/);
    await expect(
      evalCommand(['--checkpoint', checkpoint, '--backend', 'cpu', '--walks-label', 'x'], () => {}),
    ).rejects.toThrow(/--walks-label: names the walks written by --walks-out FILE, which is not given/);
  });

  const lines = (dir: string) =>
    readFileSync(join(dir, 'metrics.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
  const strip = (m: Record<string, unknown>) => ({
    ...m,
    scalars: Object.fromEntries(
      Object.entries(m.scalars as object).filter(([k]) => !k.startsWith('time/') && k !== 'tokens_per_s'),
    ),
  });
  const stepOf = (path: string) =>
    (readSafetensors(readFileSync(path)).runConfig as { trainedSteps: number }).trainedSteps;

  it('--out that is a file, /dev/null or under /proc is named before anything runs (no hang, no stack trace); --backend is checked first', async () => {
    const d = mkdtempSync(join(tmpdir(), 'rlvr-out-'));
    const file = join(d, 'f');
    writeFileSync(file, 'x');
    await expect(train(['--steps', '1'], undefined, file)).rejects.toThrowError(/^--out .*\/f: is not a folder$/);
    await expect(train(['--steps', '1'], undefined, join(file, 'sub'))).rejects.toThrowError(
      /^--out .*\/f\/sub: .*\/f is not a folder$/,
    );
    await expect(train(['--steps', '1'], undefined, '/dev/null')).rejects.toThrowError(
      /^--out \/dev\/null: is not a folder$/,
    );
    await expect(train(['--steps', '1'], undefined, '/proc/rlvr-x')).rejects.toThrowError(
      /^--out \/proc\/rlvr-x: cannot create the folder \/proc\/rlvr-x \(ENOENT/,
    );
    const never = join(d, 'never');
    await expect(
      trainCommand(
        ['--preset', 'sort-easy', '--steps', '1', '--backend', 'tpu', '--out', never],
        () => {},
        () => {},
      ),
    ).rejects.toThrowError(/--backend must be one of gpu, cpu; got "tpu"/);
    expect(existsSync(never)).toBe(false);
    // A folder where the checkpoint file goes is found at the start too.
    const clash = join(d, 'clash');
    mkdirSync(join(clash, 'checkpoint.safetensors'), { recursive: true });
    await expect(train(['--steps', '1'], undefined, clash)).rejects.toThrowError(
      /checkpoint\.safetensors there is a folder/,
    );
  });

  it('a metrics.jsonl that cannot be appended to is reported and the run still ends with its checkpoint', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlvr-train-'));
    const errs: string[] = [];
    const rc = await trainCommand(
      [...small, '--out', dir, '--json', '--steps', '3'],
      (line) => {
        if (JSON.parse(line).step === 1) {
          rmSync(join(dir, 'metrics.jsonl'));
          mkdirSync(join(dir, 'metrics.jsonl')); // appending to a folder fails (EISDIR)
        }
      },
      (s) => errs.push(s),
    );
    expect(rc).toBe(0);
    expect(errs.join('\n')).toMatch(/warning: cannot append to .*metrics\.jsonl \(EISDIR.*at step 2; the run goes on/);
    expect(stepOf(join(dir, 'checkpoint.safetensors'))).toBe(3);
  });

  it('a checkpoint that cannot be written where asked goes to a rescue folder (exit 1); the old one stays whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlvr-train-'));
    const errs: string[] = [];
    const rc = await trainCommand(
      [...small, '--out', dir, '--json', '--steps', '2', '--checkpoint-every', '1'],
      (line) => {
        // After step 1's checkpoint: block the temporary file the next write goes through.
        if (JSON.parse(line).step === 2) mkdirSync(join(dir, `.checkpoint.safetensors.tmp-${process.pid}`));
      },
      (s) => errs.push(s),
    );
    expect(rc).toBe(1);
    const rescued = /saved to (\S+) instead/.exec(errs.join('\n'))![1];
    expect(stepOf(rescued)).toBe(2);
    expect(existsSync(rescued.replace(/\.safetensors$/, '.state.safetensors'))).toBe(true);
    expect(stepOf(join(dir, 'checkpoint.safetensors'))).toBe(1);
    expect(readdirSync(dir).filter((n) => n.startsWith('.') && !n.includes(`tmp-${process.pid}`))).toEqual([]);
  });

  it('--resume continues a stopped run on its own engine (no --backend needed): its metrics are those of the run done in one go', async () => {
    const whole = await train(['--steps', '4', '--set', 'epochs=2', '--set', 'minibatches=2']);
    const part = await train(['--steps', '2', '--set', 'epochs=2', '--set', 'minibatches=2']);
    expect(existsSync(join(part.dir, 'checkpoint.state.safetensors'))).toBe(true);
    const more: string[] = [];
    const notes: string[] = [];
    const rc = await trainCommand(
      ['--resume', part.dir, '--steps', '4', '--json'],
      (s) => more.push(s),
      (s) => notes.push(s),
    );
    expect(rc).toBe(0);
    // The part was trained with --backend cpu; the resumed run stays there without being told.
    expect(JSON.parse(more.at(-1)!).done).toMatchObject({
      steps: 4,
      adapter: 'cpu reference',
      resumedFrom: join(part.dir, 'checkpoint.safetensors'),
    });
    expect(notes.filter((n) => /engine/.test(n))).toEqual([]);
    expect(lines(part.dir).map(strip)).toEqual(lines(whole.dir).map(strip));
    expect(stepOf(join(part.dir, 'checkpoint.safetensors'))).toBe(4);
  });

  it("--init starts a fresh run (step 1, its own config) from a checkpoint's weights; another model or task is refused by name", async () => {
    const donor = await train(['--steps', '2']);
    const from = join(donor.dir, 'checkpoint.safetensors');
    const fresh = await train(['--steps', '1', '--init', from]);
    expect(fresh.rc).toBe(0);
    expect(lines(fresh.dir).map((m) => m.step)).toEqual([1]);
    expect(JSON.parse(fresh.lines.at(-1)!).done).toMatchObject({ steps: 1, initFrom: from });
    // Same seed, so the same prompts and sampling streams: only the donor's weights make its first step differ.
    expect(strip(lines(fresh.dir)[0]).scalars).not.toEqual(strip(lines(donor.dir)[0]).scalars);
    await expect(train(['--steps', '1', '--init', from, '--set', 'model.nEmbd=8'])).rejects.toThrowError(
      /^--init .*: its model has nEmbd 16, this run's config builds 8/,
    );
    await expect(train(['--steps', '1', '--init', from, '--set', 'task.length=4'])).rejects.toThrowError(
      /^--init .*: its model has (vocabSize|nPositions) /,
    );
    await expect(
      trainCommand(
        ['--resume', donor.dir, '--init', from, '--backend', 'cpu', '--steps', '3'],
        () => {},
        () => {},
      ),
    ).rejects.toThrowError(/^--init starts a fresh run/);
  });

  it("--checkpoint-levels keeps the weights each level starts with: the first level's after the warm start (the base model), the next at its advance", async () => {
    // 20 warm-start steps on the answers: length 2 then passes the 0.01 target at its first check.
    const r = await train([
      '--steps',
      '3',
      '--checkpoint-levels',
      '--set',
      'sftSteps=20',
      '--set',
      'sftLr=0.01',
      '--set',
      'curriculum=pass-rate',
      '--set',
      'curriculumParam=length',
      '--set',
      'curriculumStart=2',
      '--set',
      'curriculumWindow=1',
      '--set',
      'curriculumTarget=0.01',
      '--set',
      'evalPrompts=32',
    ]);
    expect(r.rc).toBe(0);
    const run = (name: string) =>
      readSafetensors(readFileSync(join(r.dir, name))).runConfig as { trainedSteps: number; level: number };
    expect(run('checkpoint-level2.safetensors')).toMatchObject({ trainedSteps: 0, level: 2 });
    expect(run('checkpoint-level3.safetensors')).toMatchObject({ trainedSteps: 1, level: 3 });
  });

  it('--checkpoint-at writes the weights after each listed step, and the final checkpoint still holds the last; a bad list is named', async () => {
    const r = await train(['--steps', '3', '--checkpoint-at', '1,3']);
    expect(r.rc).toBe(0);
    const run = (name: string) =>
      readSafetensors(readFileSync(join(r.dir, name))).runConfig as { trainedSteps: number };
    expect(run('checkpoint-step1.safetensors').trainedSteps).toBe(1);
    expect(run('checkpoint-step3.safetensors').trainedSteps).toBe(3);
    expect(existsSync(join(r.dir, 'checkpoint-step2.safetensors'))).toBe(false);
    // The step-3 file is the run's end: the same weights as checkpoint.safetensors.
    expect(readSafetensors(readFileSync(join(r.dir, 'checkpoint-step3.safetensors'))).params).toEqual(
      readSafetensors(readFileSync(join(r.dir, 'checkpoint.safetensors'))).params,
    );
    await expect(train(['--steps', '3', '--checkpoint-at', '10,x'])).rejects.toThrowError(
      /--checkpoint-at must be a comma-separated list of positive step numbers \(e\.g\. 100,300\), got "x" in "10,x"/,
    );
    await expect(train(['--steps', '3', '--checkpoint-at', '0'])).rejects.toThrowError(/--checkpoint-at must be/);
  });

  it('--resume refuses what cannot change (seed, model, preset) and a --steps it has already reached, by name', async () => {
    const r = await train(['--steps', '2']);
    const resume = (extra: string[]) =>
      trainCommand(
        ['--resume', r.dir, '--backend', 'cpu', ...extra],
        () => {},
        () => {},
      );
    await expect(resume(['--steps', '2'])).rejects.toThrowError(
      /^--steps: the run is at step 2 and steps is 2; give --steps above it/,
    );
    await expect(resume(['--steps', '3', '--seed', '4'])).rejects.toThrowError(/^--seed cannot change on --resume/);
    await expect(resume(['--steps', '3', '--set', 'model.nEmbd=32'])).rejects.toThrowError(
      /^--set model\.nEmbd: cannot change on --resume/,
    );
    await expect(resume(['--steps', '3', '--preset', 'sort-easy'])).rejects.toThrowError(
      /--resume continues a saved run with its own config/,
    );
    await expect(resume(['--steps', '3', '--set', 'lr=7'])).rejects.toThrowError(/^--set lr: lr must be a number in/);
    rmSync(join(r.dir, 'checkpoint.state.safetensors'));
    await expect(resume(['--steps', '3'])).rejects.toThrowError(
      /its trainer state .*checkpoint\.state\.safetensors cannot be read/,
    );
  });

  it('a divergence fault keeps the last good checkpoint, writes the weights from before the step beside it, and the run resumes from them with a lower lr', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlvr-train-'));
    const errs: string[] = [];
    const outLines: string[] = [];
    const rc = await trainCommand(
      [
        ...small,
        '--out',
        dir,
        '--json',
        '--steps',
        '6',
        '--checkpoint-every',
        '1',
        '--set',
        'lr=1',
        '--set',
        'beta2=0',
        '--set',
        'adamEps=1e-12',
      ],
      (s) => outLines.push(s),
      (s) => errs.push(s),
    );
    expect(rc).toBe(3);
    const fault = JSON.parse(outLines.at(-1)!).fault;
    expect(fault.check).toBe('update-norm');
    const text = errs.join('\n');
    expect(text).toMatch(new RegExp(`^paused: step ${fault.step}: divergence \\(update-norm\\)`, 'm'));
    expect(text).toContain(
      `The last good checkpoint, ${join(dir, 'checkpoint.safetensors')} (step ${fault.step - 1}), is kept as it was.`,
    );
    expect(stepOf(join(dir, 'checkpoint.safetensors'))).toBe(fault.step - 1);
    const before = join(dir, 'checkpoint-before-fault.safetensors');
    expect(stepOf(before)).toBe(fault.step - 1);
    expect(text).toContain(`--resume ${before} --set lr=<lower>`);
    const errs2: string[] = [];
    const rc2 = await trainCommand(
      [
        '--resume',
        before,
        '--backend',
        'cpu',
        '--set',
        'lr=0.001',
        '--set',
        'beta2=0.99',
        '--set',
        'adamEps=1e-8',
        '--json',
      ],
      () => {},
      (s) => errs2.push(s),
    );
    expect(rc2, errs2.join('\n')).toBe(0);
    expect(stepOf(join(dir, 'checkpoint.safetensors'))).toBe(6);
    expect(lines(dir).map((m) => m.step)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('Ctrl-C during the SFT warm start stops it, writes the checkpoint (exit 130), and --resume finishes the warm start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlvr-train-'));
    let sent = false;
    const rc = await trainCommand(
      [...small, '--out', dir, '--json', '--steps', '2', '--set', 'sftSteps=30'],
      () => {},
      (s) => {
        if (!sent && s.startsWith('warm start: step')) {
          sent = true;
          process.emit('SIGINT', 'SIGINT');
        }
      },
    );
    expect(rc).toBe(130);
    expect(lines(dir)).toEqual([
      expect.objectContaining({ warmStart: expect.objectContaining({ steps: 3, done: 3, of: 30 }) }),
    ]);
    expect(process.listenerCount('SIGINT')).toBe(0);
    const rc2 = await trainCommand(
      ['--resume', dir, '--backend', 'cpu', '--json'],
      () => {},
      () => {},
    );
    expect(rc2).toBe(0);
    const all = lines(dir);
    expect(all[1]).toMatchObject({ warmStart: { steps: 27, done: 30, of: 30 } });
    expect(all.slice(2).map((m) => m.step)).toEqual([1, 2]);
  });

  gpuIt(
    'a config in range that does not fit the adapter is refused before any GPU work, naming the knob and the largest value that fits',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'rlvr-train-'));
      await expect(
        trainCommand(
          [
            '--preset',
            'sort-easy',
            '--steps',
            '1',
            '--out',
            dir,
            '--set',
            'model.nEmbd=512',
            '--set',
            'batchPrompts=256',
            '--set',
            'groupSize=64',
          ],
          () => {},
          () => {},
        ),
      ).rejects.toThrowError(
        /^this run does not fit the GPU: .*maxStorageBufferBindingSize.*Values that fit, the others unchanged: batchPrompts ≤ \d+/,
      );
      expect(existsSync(join(dir, 'config.json'))).toBe(false);
      await expect(
        trainCommand(
          ['--preset', 'sort-easy', '--steps', '1', '--out', dir, '--gpu-memory', '0.001'],
          () => {},
          () => {},
        ),
      ).rejects.toThrowError(/the memory budget is 1\.1 MB.*Or raise the budget with --gpu-memory GiB\.$/);
    },
  );
});

/**
 * Recomputes model `i`'s branching figures from a --walks-out file's raw walks, reading the tokens
 * through the file's vocabulary with nothing from the maze task's code: a walk is its moves before
 * the end token, at most n², each onto an open cell; correct if it ends on G.
 */
function recheckWalksFile(rec: any, i: number): void {
  const model = rec.models[i];
  const n = rec.params.size;
  const k = model.branching.k;
  expect(rec.completionLength).toBe((rec.params.answer === 'cells' ? 2 : 1) * n * n + 1);
  const step: Record<string, [number, number]> = { U: [-1, 0], D: [1, 0], L: [0, -1], R: [0, 1] };
  const read = (maze: any, tokens: number[]) => {
    const texts = tokens.map((t) => rec.vocab[t]);
    const end = texts.indexOf('<eos>');
    const slots = (end < 0 ? texts : texts.slice(0, end)).filter(
      (_, j) => rec.params.answer !== 'cells' || j % 2 === 0,
    );
    let [r, c] = maze.start;
    const seen = new Set([`${r},${c}`]);
    let moves = '',
      simple = true,
      wall = false,
      ok = true;
    for (const t of slots) {
      if (moves.length === n * n || !(t in step)) {
        ok = false;
        break;
      }
      const [rr, cc] = [r + step[t][0], c + step[t][1]];
      if (rr < 0 || rr >= n || cc < 0 || cc >= n || maze.grid[rr][cc] === '#') {
        ok = false;
        wall = true;
        break;
      }
      [r, c] = [rr, cc];
      moves += t;
      if (seen.has(`${r},${c}`)) simple = false;
      seen.add(`${r},${c}`);
    }
    const correct = ok && r === maze.goal[0] && c === maze.goal[1];
    return { moves, correct, shortest: correct && moves.length === maze.shortest, simple: correct && simple, wall };
  };
  const simpson = (xs: string[]) =>
    1 - [...new Set(xs)].reduce((a, x) => a + (xs.filter((y) => y === x).length / xs.length) ** 2, 0);
  const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
  const per = rec.mazes.map((maze: any, b: number) => {
    const walks = model.sampled[b].map((w: number[]) => read(maze, w));
    expect(walks).toHaveLength(model.walksPerMaze);
    const of = (f: (w: any) => boolean) => walks.filter(f).map((w: any) => w.moves as string);
    const [correct, shortest, simple] = [of((w) => w.correct), of((w) => w.shortest), of((w) => w.simple)];
    return {
      correct,
      shortest,
      simple,
      wall: walks.filter((w: any) => w.wall).length / walks.length,
      greedy: read(maze, model.greedy[b]).correct,
    };
  });
  const distinct = (xs: string[]) => new Set(xs).size;
  const s = model.branching;
  expect(s.passAtK[0]).toBeCloseTo(mean(per.map((p: any) => p.correct.length / model.walksPerMaze)), 12);
  expect(s.distinctCorrect).toBeCloseTo(mean(per.map((p: any) => distinct(p.correct))), 12);
  expect(s.distinctShortest).toBeCloseTo(mean(per.map((p: any) => distinct(p.shortest))), 12);
  expect(s.distinctSimple).toBeCloseTo(mean(per.map((p: any) => distinct(p.simple))), 12);
  expect(s.wallContact).toBeCloseTo(mean(per.map((p: any) => p.wall)), 12);
  const withShortest = per.filter((p: any) => p.shortest.length > 0);
  expect(s.simpsonShortestMazes).toBe(withShortest.length);
  if (withShortest.length > 0)
    expect(s.simpsonShortest).toBeCloseTo(mean(withShortest.map((p: any) => simpson(p.shortest))), 12);
  const atK = per.filter((p: any) => p.correct.length >= k);
  expect(s.matchedCorrect.mazes).toBe(atK.length);
  expect(s.matchedCorrect.excluded).toBe(per.length - atK.length);
  if (atK.length > 0)
    expect(s.matchedCorrect.distinct).toBeCloseTo(mean(atK.map((p: any) => distinct(p.correct.slice(0, k)))), 12);
  // The greedy walks are there, one per maze, and read as the verifier reads them.
  expect(model.greedy).toHaveLength(rec.mazes.length);
  expect(per.map((p: any) => p.correct.length).reduce((a: number, x: number) => a + x, 0)).toBeGreaterThan(0);
}
