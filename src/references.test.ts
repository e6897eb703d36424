// The repository explains itself: every path the code, the shaders, the tests and the docs name
// (src/…, docs/…, shaders/…) and every relative link of a Markdown page is a file or folder of
// this repository (a link to a heading, a heading of that page), every page of docs/ is reachable
// from the README, and nothing points at notes kept somewhere else.

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

const MARKDOWN = TEXT.filter((f) => f.endsWith('.md'));

/** The #anchors of a Markdown page's headings, as GitHub writes them (code blocks left out). */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let inCode = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inCode = !inCode;
    const heading = !inCode && /^#{1,6} (.*)$/.exec(line);
    if (!heading) continue;
    // A link in a heading counts by its text, as GitHub renders it.
    const slug = heading[1]
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

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

  it('every relative link of a Markdown page exists, and so does its #anchor', () => {
    const bad: string[] = [];
    for (const file of MARKDOWN) {
      for (const m of readFileSync(file, 'utf8').matchAll(/\]\(([^)#\s]*)(?:#([^)\s]*))?\)/g)) {
        const [, target, anchor] = m;
        if (/^[a-z]+:/.test(target)) continue; // a web address
        const path = target === '' ? file : resolve(dirname(file), target);
        if (!existsSync(path)) bad.push(`${relative(ROOT, file)}: ${target}`);
        else if (anchor && path.endsWith('.md') && !headingAnchors(readFileSync(path, 'utf8')).has(anchor)) {
          bad.push(`${relative(ROOT, file)}: ${target}#${anchor}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('every page of docs/ can be reached from the README by links', () => {
    const reached = new Set<string>();
    const queue = [join(ROOT, 'README.md')];
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (reached.has(file)) continue;
      reached.add(file);
      for (const m of readFileSync(file, 'utf8').matchAll(/\]\(([^)#\s]+\.md)(?:#[^)]*)?\)/g)) {
        const path = resolve(dirname(file), m[1]);
        if (existsSync(path)) queue.push(path);
      }
    }
    expect(MARKDOWN.filter((f) => !reached.has(f)).map((f) => relative(ROOT, f))).toEqual([]);
  });

  it('nothing points at notes outside the repository', () => {
    const outside = /DESIGN\.md|METHODS\.md|[Hh]ouse rule|\.\.\/shared|papers\/\d/;
    const bad = TEXT.filter((f) => f !== fileURLToPath(import.meta.url) && outside.test(readFileSync(f, 'utf8'))).map(
      (f) => relative(ROOT, f),
    );
    expect(bad).toEqual([]);
  });
});
