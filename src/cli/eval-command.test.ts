// `rlvr eval` on checkpoints written by `rlvr train`: headers out of range, a curriculum run,
// --breaks on groupmul and maze checkpoints, and the walks --walks-out gathers.

import { describe, it, expect } from 'vitest';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evalCommand } from './eval-command';
import { readSafetensors, writeSafetensors } from '../model/safetensors';
import { setFlags, smallTrainFlags, trainInto, trainSmall } from './testTrain';

/** `rlvr eval` of `checkpoint` on the CPU engine with `args`: its stdout lines (it must exit 0). */
async function evalLines(checkpoint: string, ...args: string[]): Promise<string[]> {
  const lines: string[] = [];
  expect(await evalCommand(['--checkpoint', checkpoint, '--backend', 'cpu', ...args], (s) => lines.push(s))).toBe(0);
  return lines;
}

describe('rlvr eval (cpu backend)', () => {
  it('eval refuses a checkpoint whose saved level or trainedSteps is out of range, naming it', async () => {
    const r = await trainSmall(['--steps', '1']);
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

  it('eval reads a checkpoint trained with a curriculum and a re-synced KL anchor (the cot-discovery shape)', async () => {
    const r = await trainSmall([
      '--steps',
      '1',
      ...setFlags({ curriculum: 'pass-rate', refSync: 'curriculum', klBeta: 0.5 }),
    ]);
    expect(r.rc).toBe(0);
    const lines = await evalLines(join(r.dir, 'checkpoint.safetensors'), '--n', '6', '--json');
    const result = JSON.parse(lines[0]);
    expect(result).toMatchObject({ task: 'sort', prompts: 6 });
    expect(result['pass@1']).toBeGreaterThanOrEqual(0);
    expect(result['pass@1']).toBeLessThanOrEqual(1);
  });

  it('eval --breaks on a groupmul checkpoint says where the greedy chains break (a table in text, chainBreaks in --json); other tasks are refused', async () => {
    const { rc, dir } = await trainInto([
      ...smallTrainFlags({ preset: 'cot-discovery', set: { 'task.length': 3 }, seed: 1 }),
      '--steps',
      '1',
    ]);
    expect(rc).toBe(0);
    const checkpoint = join(dir, 'checkpoint.safetensors');
    const text = await evalLines(checkpoint, '--n', '12', '--breaks');
    expect(text[1]).toBe(
      'where the greedy chain first breaks (12 prompts, S3 length 3, interleaved, 3 scratchpad tokens):',
    );
    expect(text[2]).toMatch(/^ +first wrong +y1 +y2 +y3 +none$/);
    expect(text.join('\n')).toMatch(/wrong products collapsed/);
    const json = await evalLines(checkpoint, '--n', '12', '--json');
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
    const sorted = await trainSmall(['--steps', '1']);
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
    const maze = { task: 'maze', 'task.size': 3, 'task.minDist': 2, 'model.nEmbd': 16, 'model.nLayer': 1 };
    const { rc, dir } = await trainInto([...smallTrainFlags({ preset: null, set: maze, seed: 1 }), '--steps', '1']);
    expect(rc).toBe(0);
    const checkpoint = join(dir, 'checkpoint.safetensors');
    const text = await evalLines(checkpoint, '--n', '10', '--breaks');
    expect(text[1]).toBe('where each greedy walk first goes wrong (10 mazes, 3×3):');
    const json = await evalLines(checkpoint, '--n', '10', '--json');
    const result = JSON.parse(json[0]);
    const w = result.walkBreaks;
    expect(w).toMatchObject({ size: 3, prompts: 10, correct: Math.round(result['pass@1'] * 10) });
    const kinds = Object.values(w.kinds as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(w.unbroken + kinds).toBe(10);
    expect(w.byMove.reduce((a: number, b: number) => a + b, 0)).toBe(kinds);
    for (const p of Object.values(w.pRight as Record<string, number>)) expect(p).toBeGreaterThanOrEqual(0);
    expect(text[2]).toContain(`shortest path to the goal: ${w.unbroken} `);
    // Each greedy walk against the wall follower (src/tasks/maze/hands.ts).
    expect(text).toContain('each greedy walk against the wall follower (10 mazes):');
    expect(Object.values(w.hands.kinds as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(10);
    expect(w.hands.reaches.either).toBeLessThanOrEqual(10);
    // BODHI's branching numbers from 8 sampled walks per maze.
    const bjson = await evalLines(checkpoint, '--n', '10', '--branching', '8', '--json');
    const b = JSON.parse(bjson[0]).branching;
    expect(b).toMatchObject({ mazes: 10, walksPerMaze: 8 });
    expect(b.passAtK).toHaveLength(8);
    for (let k = 1; k < 8; k++) expect(b.passAtK[k]).toBeGreaterThanOrEqual(b.passAtK[k - 1]);
    expect(b.shortestFound).toBeGreaterThanOrEqual(0);
    expect(b.shortestFound).toBeLessThanOrEqual(1);
    const btext = await evalLines(checkpoint, '--n', '10', '--branching', '8');
    expect(btext[1]).toBe('branching over 8 sampled walks per maze (10 mazes):');
    const sorted = await trainSmall(['--steps', '1']);
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
