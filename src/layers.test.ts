// Dependencies point one way. Every folder of src/ is a layer and may import only the layers
// listed for it (and itself); an import against the table fails this test, naming the file and
// the import. docs/architecture.md explains the layers. Tests are exempt: a GPU kernel's test
// imports its CPU twin from a higher layer to compare with it. And only src/tasks/ knows the
// tasks by name: code elsewhere that compares a task's name, or imports a task's folder, fails here too.

import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TASK_NAMES } from './tasks/registry';

const SRC = dirname(fileURLToPath(import.meta.url));

/** What the ui layer may import: every layer but the page's entry. */
const UI_MAY_IMPORT = [
  'core',
  'estimators',
  'tasks',
  'gpu',
  'model',
  'reference',
  'config',
  'lessons',
  'rl',
  'ablation',
  'worker',
  'store',
];

/** Layer → the layers it may import, lowest first. `app` is the page's entry (src/main.tsx) and
 * may load any layer. */
export const LAYERS: Readonly<Record<string, readonly string[]>> = {
  core: [],
  estimators: ['core'],
  tasks: ['core'],
  gpu: ['core'],
  model: ['core', 'gpu'],
  reference: ['core', 'model'],
  config: ['core', 'estimators', 'tasks', 'model'],
  lessons: ['core', 'estimators', 'tasks', 'model', 'config'],
  rl: ['core', 'estimators', 'tasks', 'gpu', 'model', 'reference', 'config'],
  ablation: ['core', 'estimators', 'tasks', 'model', 'config', 'lessons'],
  worker: ['core', 'estimators', 'tasks', 'gpu', 'model', 'reference', 'config', 'rl'],
  bench: ['core', 'estimators', 'tasks', 'gpu', 'model', 'reference', 'config', 'lessons', 'rl'],
  cli: ['core', 'estimators', 'tasks', 'gpu', 'model', 'reference', 'config', 'lessons', 'rl', 'ablation', 'bench'],
  store: ['core', 'estimators', 'tasks', 'gpu', 'model', 'reference', 'config', 'lessons', 'rl', 'ablation', 'worker'],
  ui: UI_MAY_IMPORT,
  app: [...UI_MAY_IMPORT, 'ui'],
};

/** The .ts and .tsx files under dir, tests only when asked. */
function sourceFiles(dir: string, withTests = false): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path, withTests));
    else if (/\.tsx?$/.test(name) && (withTests || !/\.test\.tsx?$/.test(name))) out.push(path);
  }
  return out;
}

/** The layer of a file, or of a folder imported through its index.ts. */
function layerOf(path: string): string {
  const rel = relative(SRC, path).split(/[\\/]/);
  return rel.length === 1 && /\.tsx?$/.test(rel[0]) ? 'app' : rel[0];
}

/** Every relative import of a file (static, re-export, side-effect and dynamic), resolved to a path. */
function importsOf(file: string): { spec: string; target: string }[] {
  const text = readFileSync(file, 'utf8');
  const out: { spec: string; target: string }[] = [];
  const pattern =
    /(?:^|\n)\s*(?:import|export)\b[^'"]*?\sfrom\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(pattern)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (spec.startsWith('.')) out.push({ spec, target: resolve(dirname(file), spec) });
  }
  return out;
}

/** The source files a file imports (relative imports resolved to .ts, .tsx or index.ts). */
function importedFiles(file: string): string[] {
  const out: string[] = [];
  for (const { target } of importsOf(file)) {
    const found = ['.ts', '.tsx', '/index.ts']
      .map((ext) => target + ext)
      .find((f) => existsSync(f) && statSync(f).isFile());
    if (found) out.push(found);
  }
  return out;
}

/** The files `entry` loads, directly or not (relative imports only). */
function closure(entry: string): Set<string> {
  const seen = new Set<string>();
  const todo = [entry];
  while (todo.length) {
    const f = todo.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    todo.push(...importedFiles(f));
  }
  return seen;
}

/** A shortest import path from `from` back to itself, or null. */
function circleThrough(from: string): string[] | null {
  const parent = new Map<string, string>();
  const todo = [from];
  while (todo.length) {
    const f = todo.shift()!;
    for (const g of importedFiles(f)) {
      if (g === from) {
        const path = [f];
        while (path[0] !== from) path.unshift(parent.get(path[0])!);
        return [...path, from];
      }
      if (!parent.has(g)) {
        parent.set(g, f);
        todo.push(g);
      }
    }
  }
  return null;
}

/**
 * Where code outside src/tasks/ branches on a task's name: a registered name as a string literal on
 * either side of ==, ===, != or !==, or as a case label. Such code belongs in the task's folder (a
 * task says what it is through Task.display and its other fields). A name as a value is data and
 * allowed: presets, knob defaults and test fixtures say `task: 'maze'`.
 */
export function taskNameComparisons(text: string, names: readonly string[] = TASK_NAMES): string[] {
  const alternatives = names.join('|');
  const literal = ["'", '"', '`'].map((q) => `${q}(?:${alternatives})${q}`).join('|');
  const pattern = new RegExp(`[!=]==?\\s*(?:${literal})|(?:${literal})\\s*[!=]==?|\\bcase\\s+(?:${literal})`, 'g');
  return [...text.matchAll(pattern)].map((m) => m[0]);
}

describe('layers', () => {
  const files = sourceFiles(SRC);

  it('every folder of src/ is a layer of the table', () => {
    const unknown = [...new Set(files.map(layerOf))].filter((l) => !(l in LAYERS));
    expect(unknown, 'add the new folder to LAYERS (and to docs/architecture.md)').toEqual([]);
  });

  it('no import goes against the layering', () => {
    const bad: string[] = [];
    for (const file of files) {
      const from = layerOf(file);
      for (const { spec, target } of importsOf(file)) {
        if (!target.startsWith(SRC)) continue;
        const to = layerOf(target);
        if (to !== from && !LAYERS[from]?.includes(to))
          bad.push(`${relative(SRC, file)} (${from}) imports '${spec}' (${to})`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('no file imports itself through others (type imports count), but the store and its slices', () => {
    // zustand's slice pattern: store.ts combines the slices, and each slice types set/get with
    // the whole store's AppState; a type-only circle, and the one allowed.
    const allowed = (f: string) => /^store[\\/](store|\w+Slice)\.ts$/.test(relative(SRC, f));
    const circles = files
      .filter((f) => !allowed(f))
      .map(circleThrough)
      .filter((c) => c !== null);
    expect(circles.map((c) => c.map((f) => relative(SRC, f)).join(' → '))).toEqual([]);
  });

  it('the page reaches src/gpu only through device.ts and selfcheck.ts, its own probe', () => {
    // Kernels, buffers and plans are the worker's (docs/architecture.md, "Layers"); the page
    // opens a device of its own once, for the self-check badge, and releases it.
    const pageGpu = ['gpu/device.ts', 'gpu/selfcheck.ts'];
    const bad: string[] = [];
    for (const file of files.filter((f) => ['ui', 'store'].includes(layerOf(f)))) {
      for (const target of importedFiles(file)) {
        const rel = relative(SRC, target).split(/[\\/]/).join('/');
        if (rel.startsWith('gpu/') && !pageGpu.includes(rel)) bad.push(`${relative(SRC, file)} imports ${rel}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('no code outside src/tasks/ compares a task name (tests included)', () => {
    const planted = "if (inst.task === 'maze') walk();\nswitch (t) { case \"sort\": }\nif ('groupmul' !== name) {}";
    expect(taskNameComparisons(planted)).toHaveLength(3);
    expect(taskNameComparisons("const recipe = { task: 'maze', steps: 100 }; const name = 'sort';")).toEqual([]);
    const self = fileURLToPath(import.meta.url);
    const bad: string[] = [];
    for (const file of [...sourceFiles(SRC, true)].filter((f) => f !== self && layerOf(f) !== 'tasks')) {
      for (const hit of taskNameComparisons(readFileSync(file, 'utf8'))) bad.push(`${relative(SRC, file)}: ${hit}`);
    }
    expect(bad, 'ask the task (Task.display, tableProbe, …) instead of its name').toEqual([]);
  });

  it("no file outside src/tasks/ imports a task's folder: it asks the registry and the Task's hooks", () => {
    // The registry, the Task interface and the shared helpers of src/tasks/ are allowed; a task's
    // own folder (src/tasks/<name>/, or all of them through src/tasks/index.ts) is not.
    const taskFolder = (rel: string) => /^tasks\/[^/]+\//.test(rel) || rel === 'tasks/index.ts';
    const lines: string[] = [];
    for (const file of files.filter((f) => layerOf(f) !== 'tasks')) {
      const from = relative(SRC, file).split(/[\\/]/).join('/');
      for (const target of importedFiles(file)) {
        const rel = relative(SRC, target).split(/[\\/]/).join('/');
        if (taskFolder(rel)) lines.push(`${from} imports ${rel}`);
      }
    }
    expect(
      lines,
      'ask the task through the registry (getTask) and its hooks (Task.display.picture, …) instead',
    ).toEqual([]);
  });

  it('the CPU engine and the trainer load no WebGPU code', () => {
    for (const entry of ['rl/cpu-engine.ts', 'rl/trainer.ts']) {
      const gpu = [...closure(join(SRC, entry))]
        .map((f) => relative(SRC, f))
        .filter((f) => f.startsWith('gpu') || /^model[\\/]gpu-/.test(f));
      expect(gpu, `${entry} loads`).toEqual([]);
    }
  });
});

const REPO = resolve(SRC, '..');

/** Folders of the repository that are not code (or not ours): built, installed, run outputs, assets. */
const NOT_CODE = new Set([
  '.git',
  'node_modules',
  'dist',
  'runs',
  'test-results',
  'playwright-report',
  'bench-results',
  'public',
]);

/** Every file under dir (absolute paths), skipping the NOT_CODE folders at the top of the repository. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (!(dirname(path) === REPO && NOT_CODE.has(name))) out.push(...filesUnder(path));
    } else out.push(path);
  }
  return out;
}

describe('outside src/', () => {
  it('code reaches src/ only through the command line (src/cli/main.ts); e2e specs are tests', () => {
    // bin/rlvr.mjs runs src/cli/main.ts; a script that imported the trainer or a task's folder
    // would stand outside the layer table (issue 48: research/ drives `rlvr`, it does not import it).
    const code = filesUnder(REPO).filter(
      (f) => /\.(ts|tsx|js|mjs|cjs)$/.test(f) && !f.startsWith(SRC) && !f.startsWith(join(REPO, 'e2e')),
    );
    expect(code.map((f) => relative(REPO, f))).toContain(join('bin', 'rlvr.mjs'));
    const bad: string[] = [];
    for (const file of code) {
      const text = readFileSync(file, 'utf8');
      const specs = [...text.matchAll(/(?:from\s*|import\(\s*|new URL\(\s*|require\(\s*)['"](\.[^'"]+)['"]/g)];
      for (const [, spec] of specs) {
        const target = resolve(dirname(file), spec);
        const rel = relative(SRC, target).split(/[\\/]/).join('/');
        if (!rel.startsWith('..') && !/^cli\/main(\.ts)?$/.test(rel))
          bad.push(`${relative(REPO, file)} imports ${relative(REPO, target)}`);
      }
    }
    expect(bad, 'drive the command line (npm run rlvr --) instead').toEqual([]);
  });

  it('research/ holds notes only: no code, no weights (the commands that rebuild them instead)', () => {
    const research = join(REPO, 'research');
    const files = existsSync(research) ? filesUnder(research).map((f) => relative(REPO, f)) : [];
    expect(files.filter((f) => !f.endsWith('.md'))).toEqual([]);
  });
});
