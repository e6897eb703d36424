// The repository explains itself: every path the code, the shaders, the tests and the docs name
// (src/…, docs/…, shaders/…) and every relative link of a Markdown page is a file or folder of
// this repository, and nothing points at notes kept somewhere else.

import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function filesUnder(dir: string, ext: RegExp): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path, ext));
    else if (ext.test(name)) out.push(path);
  }
  return out;
}

const TEXT = [
  ...filesUnder(join(ROOT, 'src'), /\.tsx?$/),
  ...filesUnder(join(ROOT, 'shaders'), /\.wgsl$/),
  ...filesUnder(join(ROOT, 'e2e'), /\.ts$/),
  ...filesUnder(join(ROOT, 'scripts'), /\.m?js$/),
  ...filesUnder(join(ROOT, 'docs'), /\.md$/),
  join(ROOT, 'README.md'),
];

const exists = (path: string) => ['', '.ts', '.tsx', '.md'].some((ext) => existsSync(join(ROOT, path + ext)));

describe('references', () => {
  it('every path named in the code and the docs exists', () => {
    const bad: string[] = [];
    const pattern = /(?<![\w./-])((?:src|docs|shaders|e2e|scripts|bench|public)\/[\w./-]*[\w-])/g;
    for (const file of TEXT) {
      for (const m of readFileSync(file, 'utf8').matchAll(pattern)) {
        if (!exists(m[1])) bad.push(`${relative(ROOT, file)}: ${m[1]}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('every relative link of a Markdown page exists', () => {
    const bad: string[] = [];
    for (const file of TEXT.filter((f) => f.endsWith('.md'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        const target = m[1];
        if (/^[a-z]+:/.test(target)) continue; // a web address
        if (!existsSync(resolve(dirname(file), target))) bad.push(`${relative(ROOT, file)}: ${target}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('nothing points at notes outside the repository', () => {
    const outside = /DESIGN\.md|METHODS\.md|[Hh]ouse rule|\.\.\/shared|papers\/\d/;
    const bad = TEXT.filter((f) => f !== fileURLToPath(import.meta.url) && outside.test(readFileSync(f, 'utf8'))).map((f) => relative(ROOT, f));
    expect(bad).toEqual([]);
  });
});
