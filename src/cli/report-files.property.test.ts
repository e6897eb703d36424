// rlvr report over generated damage (fast-check): the side files a report reads (cell.json,
// config.json, ablation.json, metrics.jsonl) replaced by random JSON or bytes, fields of a
// valid file replaced one at a time, links that loop, dangle or point at files, folders where
// files should be, files without permissions. A report either comes out whole (every cell a
// label, no "undefined" or "NaN" in it) or is refused with one line naming a file under the
// folder; no other error escapes.
//
// Running as root (this machine), a chmod 000 file is still readable, so the permission cases
// exercise the code path but cannot produce EACCES here; as any other user they do.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliError } from '../core/flags';
import { summarizeRunFolders } from './ablation-folders';
import { ablationFile } from './ablation-folders';
import { fakeMetricsLines, writeFakeRun } from './run-folder-fixtures';
import { ablationCells, ablationSpec } from '../ablation/spec';

const base = mkdtempSync(join(tmpdir(), 'rlvr-report-prop-'));
let serial = 0;

/** A sweep's folder as rlvr sweep leaves it: ablation.json and 2 cells × 2 seeds. */
function sweepFolder(): { dir: string; runs: string[] } {
  const dir = join(base, `case-${serial++}`);
  const spec = ablationSpec('sort-easy', { grid: [['lr', ['0.003', '0.01']]], seeds: [0, 1], steps: 4 });
  const cells = ablationCells(spec);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'ablation.json'), JSON.stringify(ablationFile(spec, cells), null, 2));
  const runs: string[] = [];
  for (const cell of cells) {
    for (const seed of spec.seeds) {
      runs.push(
        writeFakeRun(join(dir, cell.dir, `seed-${seed}`), {
          sets: [`lr=${cell.set.lr}`],
          seed,
          cell: { cell: cell.label, preset: 'sort-easy' },
        }),
      );
    }
  }
  return { dir, runs };
}

const json = fc.jsonValue({ maxDepth: 3 });
const text = fc.oneof(
  json.map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', '{', 'null', '[]', '1e999', '{"cell": ""}', '\u0000\u00ff'),
);

type Damage = (d: { dir: string; runs: string[] }) => void;
const pick = <T>(xs: readonly T[], i: number): T => xs[i % xs.length];
/** Sets one field of a JSON object file (a no-op once an earlier damage made it something else). */
const field = (path: string, key: string, value: unknown) => {
  let obj: unknown;
  try {
    obj = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return;
  }
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return;
  (obj as Record<string, unknown>)[key] = value;
  writeFileSync(path, JSON.stringify(obj));
};

const damage: fc.Arbitrary<Damage> = fc.oneof(
  fc.tuple(fc.nat(), text).map(
    ([i, t]): Damage =>
      ({ runs }) =>
        writeFileSync(join(pick(runs, i), 'cell.json'), t),
  ),
  fc.tuple(fc.nat(), text).map(
    ([i, t]): Damage =>
      ({ runs }) =>
        writeFileSync(join(pick(runs, i), 'config.json'), t),
  ),
  fc.tuple(fc.nat(), fc.constantFrom('seed', 'task', 'lr', 'evalEvery', 'curriculum', 'model.nEmbd', 'nope'), json).map(
    ([i, k, v]): Damage =>
      ({ runs }) =>
        field(join(pick(runs, i), 'config.json'), k, v),
  ),
  fc.tuple(fc.nat(), fc.constantFrom('cell', 'preset', 'variant'), json).map(
    ([i, k, v]): Damage =>
      ({ runs }) =>
        field(join(pick(runs, i), 'cell.json'), k, v),
  ),
  text.map(
    (t): Damage =>
      ({ dir }) =>
        writeFileSync(join(dir, 'ablation.json'), t),
  ),
  fc
    .tuple(
      fc.constantFrom(
        'format',
        'version',
        'preset',
        'variants',
        'grid',
        'seeds',
        'steps',
        'sets',
        'solved',
        'metrics',
        'cells',
      ),
      json,
    )
    .map(
      ([k, v]): Damage =>
        ({ dir }) =>
          field(join(dir, 'ablation.json'), k, v),
    ),
  fc.tuple(fc.nat(), fc.nat(5), text).map(([i, at, t]): Damage => ({ runs }) => {
    const path = join(pick(runs, i), 'metrics.jsonl');
    const lines = fakeMetricsLines({});
    lines.splice(at % lines.length, 0, t);
    writeFileSync(path, lines.join('\n'));
  }),
  fc
    .tuple(fc.nat(), fc.nat(3), fc.constantFrom('reward', 'entropy', 'pass@1'), json)
    .map(([i, at, k, v]): Damage => ({ runs }) => {
      const path = join(pick(runs, i), 'metrics.jsonl');
      const lines = fakeMetricsLines({}).map((l) => JSON.parse(l));
      lines[at].scalars[k] = v;
      writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n'));
    }),
  fc.tuple(fc.nat(), fc.nat(200)).map(([i, cut]): Damage => ({ runs }) => {
    const path = join(pick(runs, i), 'metrics.jsonl');
    writeFileSync(path, fakeMetricsLines({}).join('\n').slice(0, cut));
  }),
  fc
    .tuple(fc.nat(), fc.constantFrom('loop', 'self', 'dangling', 'to a file', 'to a run'))
    .map(([i, kind]): Damage => ({ dir, runs }) => {
      const at = join(pick(runs, i), '..', `link-${kind.replace(/ /g, '-')}`);
      const target = {
        loop: '..',
        self: at,
        dangling: join(dir, 'nowhere'),
        'to a file': join(dir, 'ablation.json'),
        'to a run': pick(runs, i + 1),
      }[kind];
      symlinkSync(target, at);
    }),
  fc
    .tuple(fc.nat(), fc.constantFrom('config.json', 'cell.json', 'metrics.jsonl'))
    .map(([i, name]): Damage => ({ runs }) => {
      const p = join(pick(runs, i), name);
      rmSync(p, { force: true });
      mkdirSync(p);
    }),
  fc.tuple(fc.nat(), fc.constantFrom('config.json', 'metrics.jsonl', '.')).map(
    ([i, name]): Damage =>
      ({ runs }) =>
        chmodSync(join(pick(runs, i), name), 0),
  ),
  fc.nat().map(
    (i): Damage =>
      ({ runs }) =>
        rmSync(join(pick(runs, i), 'cell.json')),
  ),
);

describe('report over damaged folders, generated', () => {
  it('a whole summary, or one line naming a file below the folder', () => {
    const outcomes = { summarised: 0, refused: 0 };
    fc.assert(
      fc.property(fc.array(damage, { minLength: 1, maxLength: 3 }), (damages) => {
        const folder = sweepFolder();
        for (const d of damages) {
          try {
            d(folder);
          } catch {
            // an earlier damage removed what this one changes
          }
        }
        try {
          const s = summarizeRunFolders([folder.dir]);
          expect(s.summary.cells.length).toBeGreaterThan(0);
          for (const c of s.summary.cells) expect(typeof c.label === 'string' && c.label.length > 0).toBe(true);
          expect(s.markdown).not.toMatch(/undefined|NaN|\[object Object\]/);
          expect(JSON.parse(JSON.stringify(s.summary))).toBeTruthy();
          for (const w of s.warnings) expect(w, w.slice(0, 200)).not.toMatch(/\n|undefined/);
          outcomes.summarised++;
        } catch (e) {
          if (!(e instanceof CliError))
            throw new Error(
              `not a named refusal: ${(e as Error)?.name}: ${String((e as Error)?.message).slice(0, 300)}`,
              { cause: e },
            );
          const m = e.message;
          expect(m, m).not.toMatch(/\n|undefined/);
          expect(m.length, m.slice(0, 200)).toBeLessThan(700);
          expect(m.includes(folder.dir) || m.startsWith('no run folders'), m).toBe(true);
          outcomes.refused++;
        } finally {
          for (const r of folder.runs) {
            try {
              chmodSync(r, 0o755);
            } catch {
              // removed by a damage
            }
          }
        }
      }),
      { numRuns: 150 },
    );
    console.log(
      `report over damaged folders, generated: ${outcomes.summarised} summarised, ${outcomes.refused} refused`,
    );
    expect(outcomes.summarised).toBeGreaterThanOrEqual(15);
    expect(outcomes.refused).toBeGreaterThanOrEqual(15);
  });
});
