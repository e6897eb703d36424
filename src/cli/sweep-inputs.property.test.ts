// rlvr sweep fed generated hostile input (fast-check): seed lists, grids, --set values and --out
// folders of every kind a user can give. Each call either emits one command per run and an
// ablation.json that reads back, or is refused with a one-line CliError; nothing else escapes,
// and nothing runs for long. --emit-jobs keeps it free of training.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliError, HelpRequested } from '../core/flags';
import { ConfigError, STATIC_KNOBS } from '../config';
import { parseGridFlags, parseSeedList } from '../ablation/spec';
import { sweepCommand } from './sweep-command';
import { parseAblationFile } from './ablation-side-files';
import { writeFakeRun } from './run-folder-fixtures';

const root = mkdtempSync(join(tmpdir(), 'rlvr-sweep-prop-'));
let serial = 0;
const fresh = () => join(root, `case-${serial++}`);

/** What a refusal must be: a CliError (or ConfigError below the CLI) in one short line. */
function refused(e: unknown, allowed: (abstract new (...a: never[]) => Error)[] = [CliError]): void {
  if (!allowed.some((k) => e instanceof k))
    throw new Error(`not a named refusal: ${(e as Error)?.name}: ${String((e as Error)?.message).slice(0, 300)}`);
  const m = (e as Error).message;
  expect(m.length, m.slice(0, 200)).toBeGreaterThan(0);
  expect(m.length, m.slice(0, 200)).toBeLessThan(700);
  expect(m, 'one line').not.toMatch(/\n/);
}

const seedText = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc
    .array(
      fc.oneof(
        fc.nat(20).map(String),
        fc.tuple(fc.nat(30), fc.nat(30)).map(([a, b]) => `${a}-${b}`),
        fc.constantFrom(
          '9007199254740993',
          '4294967295',
          '4294967296',
          '-1',
          '0x10',
          '1e3',
          '',
          ' ',
          '0-20000',
          '00',
          '3 - 5',
        ),
      ),
      { maxLength: 6 },
    )
    .map((a) => a.join(',')),
);

describe('sweep inputs, generated', () => {
  it("--seeds: distinct seeds in the seed knob's range, or a ConfigError naming seeds; fast whatever the text", () => {
    fc.assert(
      fc.property(seedText, (text) => {
        const t0 = Date.now();
        let seeds: number[] | null = null;
        try {
          seeds = parseSeedList(text);
        } catch (e) {
          refused(e, [ConfigError]);
          expect((e as ConfigError).knob).toBe('seeds');
        }
        expect(Date.now() - t0).toBeLessThan(2000);
        if (!seeds) return;
        expect(new Set(seeds).size).toBe(seeds.length);
        for (const s of seeds) expect(Number.isSafeInteger(s) && s >= 0 && s <= 4294967295, String(s)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('--grid: knob=value lists, or a ConfigError naming grid', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string({ maxLength: 12 }),
            fc
              .tuple(fc.constantFrom('lr', 'seed', 'steps', ' lr', 'x'), fc.string({ maxLength: 8 }))
              .map(([k, v]) => `${k}=${v}`),
          ),
          { maxLength: 4 },
        ),
        (flags) => {
          try {
            for (const [k, vs] of parseGridFlags(flags)) {
              expect(k.trim()).toBe(k);
              expect(k.length).toBeGreaterThan(0);
              expect(vs.length).toBeGreaterThan(0);
            }
          } catch (e) {
            refused(e, [ConfigError]);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  // --out: every kind of place a user can name.
  const outKinds: Record<string, () => string> = {
    'a new nested folder': () => join(fresh(), 'a', 'b'),
    'an empty folder': () => {
      const d = fresh();
      mkdirSync(d);
      return d;
    },
    'a file': () => {
      const f = fresh();
      writeFileSync(f, 'x');
      return f;
    },
    'below a file': () => {
      const f = fresh();
      writeFileSync(f, 'x');
      return join(f, 'sub');
    },
    '/dev/null': () => '/dev/null',
    'under /proc': () => '/proc/rlvr-nope',
    'a folder holding a run': () => {
      const d = fresh();
      writeFakeRun(join(d, 'old'));
      return d;
    },
    'a folder with a damaged ablation.json': () => {
      const d = fresh();
      mkdirSync(d);
      writeFileSync(join(d, 'ablation.json'), '{"format":"rlvr-ablation","cells":5}');
      return d;
    },
    'a folder where ablation.json is a folder': () => {
      const d = fresh();
      mkdirSync(join(d, 'ablation.json'), { recursive: true });
      return d;
    },
    'a link to a file': () => {
      const f = fresh();
      writeFileSync(f, 'x');
      const l = fresh();
      symlinkSync(f, l);
      return l;
    },
    'a link loop': () => {
      const l = fresh();
      symlinkSync(l, l);
      return l;
    },
    'a name with spaces, quotes and a newline': () => join(fresh(), 'a b\'c"\nd'),
  };
  const knobKeys = STATIC_KNOBS.map((k) => k.key).filter((k) => k !== 'task');
  const gridArg = fc
    .tuple(
      fc.constantFrom(...knobKeys, 'seed', 'steps', 'task.length', 'nope'),
      fc.array(
        fc.oneof(
          fc.constantFrom('0.001', '1e-3', '0.003', '0.01', '4', '8', '1', '0', '-1', 'true', 'grpo', 'x', '1e999'),
          fc.string({ maxLength: 5 }),
        ),
        { minLength: 1, maxLength: 3 },
      ),
    )
    .map(([k, vs]) => `${k}=${vs.join(',')}`);
  const setArg = fc
    .tuple(
      fc.constantFrom('evalEvery', 'lr', 'seed', 'steps', 'groupSize', 'batchPrompts', 'nope'),
      fc.oneof(fc.constantFrom('0', '1', '25', '0.01', 'abc'), fc.string({ maxLength: 6 })),
    )
    .map(([k, v]) => `${k}=${v}`);

  it('sweep --emit-jobs: one command per run and an ablation.json that reads back (and the same flags again pass), or one line naming the input', async () => {
    const outcomes = { emitted: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('sort-easy', 'sort-easy', 'clip-higher', 'dead-groups', 'nope'),
        fc.oneof(
          fc.array(gridArg, { maxLength: 2 }),
          fc.constant(['lr=0.003,0.01']),
          fc.constant(['groupSize=4,8', 'lr=0.01']),
          fc.constant([]),
        ),
        fc.oneof(
          { arbitrary: fc.array(setArg, { maxLength: 2 }), weight: 1 },
          { arbitrary: fc.constant([]), weight: 2 },
        ),
        fc.option(fc.oneof(seedText, fc.constantFrom('0-3', '0,2,5', '7')), { nil: undefined, freq: 2 }),
        fc.option(fc.oneof(fc.constantFrom('1', '2', '0', '-3', 'x', '10000001'), fc.nat(50).map(String)), {
          nil: undefined,
        }),
        fc.oneof(
          {
            arbitrary: fc.constantFrom(
              'a new nested folder',
              'an empty folder',
              'a name with spaces, quotes and a newline',
            ),
            weight: 3,
          },
          { arbitrary: fc.constantFrom(...Object.keys(outKinds)), weight: 2 },
        ),
        async (preset, grid, sets, seeds, steps, outKind) => {
          const out = outKinds[outKind]();
          const argv = [
            '--preset',
            preset,
            ...grid.flatMap((g) => ['--grid', g]),
            ...sets.flatMap((s) => ['--set', s]),
            ...(seeds !== undefined ? ['--seeds', seeds] : []),
            ...(steps !== undefined ? ['--steps', steps] : []),
            '--out',
            out,
            '--emit-jobs',
          ];
          const lines: string[] = [];
          let code: number;
          try {
            code = await sweepCommand(argv, { out: (s) => lines.push(s), err: () => {}, tty: false, cli: ['node'] });
          } catch (e) {
            if (e instanceof HelpRequested) return;
            refused(e);
            outcomes.refused++;
            return;
          }
          expect(code).toBe(0);
          outcomes.emitted++;
          const spec = parseAblationFile(JSON.parse(readFileSync(join(out, 'ablation.json'), 'utf8')), 'ablation.json');
          expect(lines.length).toBe(spec.cells.length * spec.seeds.length);
          for (const line of lines) expect(line).toMatch(/^npm run --silent rlvr -- train --preset /);
          expect(new Set(spec.cells.map((c) => c.dir)).size).toBe(spec.cells.length);
          for (const k of ['seed', 'steps']) expect(spec.cells.some((c) => k in c.set)).toBe(false);
          expect(await sweepCommand(argv, { out: () => {}, err: () => {}, tty: false, cli: ['node'] })).toBe(0);
        },
      ),
      { numRuns: 150 },
    );
    // Both ways out were taken often enough to mean something.
    console.log(`sweep --emit-jobs, generated: ${outcomes.emitted} emitted, ${outcomes.refused} refused`);
    expect(outcomes.emitted).toBeGreaterThanOrEqual(15);
    expect(outcomes.refused).toBeGreaterThanOrEqual(15);
  }, 300_000);
});
