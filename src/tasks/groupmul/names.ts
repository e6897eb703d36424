// Readable names for the elements of the groupmul groups, for display only.
//
// The vocabulary keeps its token strings (r0, s2, p120, -i, q3): they are a checkpoint contract.
// Here each element gets the name a lecturer would write on the board:
// - Z_n:           e, r, r², …            (r = rotate one step)
// - D_n and S3:    e, r, r², …, s, sr, sr², …   (s·rᵇ, with r a rotation of order n, s a reflection)
// - S4, A4, A5, S5: e, then a letter for the element's cycle type and its number within that type
//                  (t₁ … t₈ are A4's 3-cycles, its third turns of a tetrahedron; h₁ … h₃ its double
//                  swaps, its half turns), the permutation and its cycles on hover
// - Q8:            the quaternions themselves: 1, −1, i, −i, j, −j, k, −k
// - quasigroups:   a, b, c, … (no identity; e skipped too, so that nothing reads as one)
//
// Products follow the task's convention (groups.ts): elements act on the right, so "sr" is the
// table entry table[s][r]: apply s first, then r. Names are built from the table itself, so they
// agree with it by construction (the tests check every product).

import { getGroup, parseGroupName, type Magma } from './groups';

import type { ElementDisplay } from '../picture';

export type { ElementDisplay };

const SUPERSCRIPT_DIGITS = '⁰¹²³⁴⁵⁶⁷⁸⁹';
const SUBSCRIPT_DIGITS = '₀₁₂₃₄₅₆₇₈₉';

/** 2 → "²", 11 → "¹¹". */
export function superscript(n: number): string {
  return [...String(n)].map((d) => SUPERSCRIPT_DIGITS[Number(d)]).join('');
}

/** 2 → "₂", 16 → "₁₆". */
export function subscript(n: number): string {
  return [...String(n)].map((d) => SUBSCRIPT_DIGITS[Number(d)]).join('');
}

/** The word s^a·r^b as written on the board: e, r, r², s, sr, sr². */
export function dihedralWord(a: 0 | 1, b: number): string {
  const rotation = b === 0 ? '' : b === 1 ? 'r' : `r${superscript(b)}`;
  const word = (a === 1 ? 's' : '') + rotation;
  return word === '' ? 'e' : word;
}

/** Letters for elements that have no geometric name; e is left out (it reads as the identity). */
const LETTERS = 'abcdfghijklmnopqrstuvwxyz';

/** One-line notation of a permutation: digits joined, or space-separated when a digit has two places. */
export function oneLine(p: readonly number[]): string {
  return p.join(p.length > 10 ? ' ' : '');
}

/** "0→1, 1→2, 2→0 (one-line 120)". */
export function describePermutation(p: readonly number[]): string {
  return `${p.map((image, x) => `${x}→${image}`).join(', ')} (one-line ${oneLine(p)})`;
}

const cache = new Map<string, ElementDisplay>();

/** Display names, hover texts and a legend for the elements of a groupmul group; throws on an unknown name. */
export function elementDisplay(groupName: string): ElementDisplay {
  const hit = cache.get(groupName);
  if (hit) return hit;
  const parsed = parseGroupName(groupName);
  if (!parsed) throw new Error(`unknown group "${groupName}"`);
  const g = getGroup(groupName);
  const { family, n } = parsed;
  const built =
    family === 'Z'
      ? cyclicDisplay(g, n)
      : family === 'D'
        ? dihedralDisplay(g, n)
        : family === 'S' && n === 3
          ? s3Display(g)
          : family === 'Q'
            ? quaternionDisplay(g)
            : family === 'quasi'
              ? quasigroupDisplay(g)
              : cycleTypeDisplay(g);
  cache.set(groupName, built);
  return built;
}

// ── Rotations and reflections (Z_n, D_n, S3) ───────────────────────────────────────────────

/** Index of the element whose permutation is p; −1 when the group has none. */
function indexOfPerm(g: Magma, p: readonly number[]): number {
  const key = p.join(',');
  return g.perms?.findIndex((q) => q.join(',') === key) ?? -1;
}

/** x ↦ x+1 mod n. */
function rotationPerm(n: number): number[] {
  return Array.from({ length: n }, (_, x) => (x + 1) % n);
}

/** x ↦ −x mod n. */
function reflectionPerm(n: number): number[] {
  return Array.from({ length: n }, (_, x) => (n - x) % n);
}

/** powers[b] = r^b, multiplied out through the table (r^0 = the identity, element 0). */
function powers(g: Magma, r: number, count: number): number[] {
  const out = [0];
  for (let b = 1; b < count; b++) out.push(g.table[out[b - 1]][r]);
  return out;
}

interface Word {
  a: 0 | 1;
  b: number;
}

/**
 * words[i] = (a, b) with element i = s^a·r^b, built from the table: r^b by repeated
 * multiplication, s·r^b = table[s][r^b]. Throws if the words do not name every element once
 * (which would mean r and s do not generate the group).
 */
function wordsOf(g: Magma, n: number, r: number, s: number | null): Word[] {
  const rb = powers(g, r, n);
  const words: (Word | undefined)[] = new Array(g.order);
  const place = (element: number, w: Word): void => {
    if (words[element]) throw new Error(`${g.name}: ${dihedralWord(w.a, w.b)} repeats an element`);
    words[element] = w;
  };
  rb.forEach((element, b) => place(element, { a: 0, b }));
  if (s !== null) rb.forEach((element, b) => place(g.table[s][element], { a: 1, b }));
  if (words.some((w) => w === undefined)) throw new Error(`${g.name}: r and s do not name every element`);
  return words as Word[];
}

/** Rotation r and (optional) reflection s of the n-gon, found by their permutations. */
function polygonGenerators(g: Magma, n: number, withReflection: boolean): { r: number; s: number | null } {
  const r = indexOfPerm(g, rotationPerm(n));
  const s = withReflection ? indexOfPerm(g, reflectionPerm(n)) : null;
  if (r < 0 || s === -1) throw new Error(`${g.name}: no rotation/reflection of the ${n}-gon`);
  return { r, s };
}

/** Indices sorted by their word: rotations first, then reflections, each by exponent. */
function wordOrder(words: readonly Word[]): number[] {
  return words.map((_, i) => i).sort((i, j) => words[i].a - words[j].a || words[i].b - words[j].b);
}

function cyclicDisplay(g: Magma, n: number): ElementDisplay {
  const { r } = polygonGenerators(g, n, false);
  const words = wordsOf(g, n, r, null);
  return {
    order: wordOrder(words),
    names: words.map((w) => dihedralWord(w.a, w.b)),
    describe: words.map((w, i) => `${rotationText(w.b, n)} (token ${g.elementNames[i]})`),
    key: `e = identity · r = rotate one step (x ↦ x+1 mod ${n}) · r${superscript(2)} = rotate two steps, …`,
  };
}

function dihedralDisplay(g: Magma, n: number): ElementDisplay {
  const { r, s } = polygonGenerators(g, n, true);
  const words = wordsOf(g, n, r, s);
  return {
    order: wordOrder(words),
    names: words.map((w) => dihedralWord(w.a, w.b)),
    describe: words.map(
      (w, i) => `${w.a === 0 ? rotationText(w.b, n) : reflectionText(w.b, n)} (token ${g.elementNames[i]})`,
    ),
    key: `symmetries of a ${n}-gon: e = identity · r = rotate one corner · s = reflect (x ↦ −x mod ${n}) · sr${superscript(2)} = s, then r${superscript(2)}`,
  };
}

/** S3 is D3: named as its rotations and reflections, the permutation on hover. */
function s3Display(g: Magma): ElementDisplay {
  const { r, s } = polygonGenerators(g, 3, true);
  const words = wordsOf(g, 3, r, s);
  return {
    order: wordOrder(words),
    names: words.map((w) => dihedralWord(w.a, w.b)),
    describe: (g.perms ?? []).map((p) => describePermutation(p)),
    key: 'e = identity · r = rotation 0→1→2→0 · s = reflection swapping 1 and 2 · sr = s, then r',
  };
}

/** (s·r^b)(x) = r^b(s(x)) = b − x mod n. */
function reflectionText(b: number, n: number): string {
  return `reflection x ↦ ${b === 0 ? '' : b}−x mod ${n}`;
}

function rotationText(b: number, n: number): string {
  if (b === 0) return 'identity: rotate 0 steps';
  return `rotate ${b} step${b === 1 ? '' : 's'}: x ↦ x+${b} mod ${n}`;
}

// ── Letters (quasigroups) ──────────────────────────────────────────────

function indexOrder(order: number): number[] {
  return Array.from({ length: order }, (_, i) => i);
}

/** The j-th letter name (0-based): a … z, then a₁ … z₁, a₂ …, so groups past 25 elements (A5, S5) stay named. */
export function letterName(j: number): string {
  const round = Math.floor(j / LETTERS.length);
  return LETTERS[j % LETTERS.length] + (round === 0 ? '' : subscript(round));
}

/** a, b, c, … in index order (no e: a quasigroup has no identity, and nothing should read as one). */
function letterNames(order: number): string[] {
  return Array.from({ length: order }, (_, i) => letterName(i));
}

// ── Cycle types (S4, A4, A5, S5) ───────────────────────────────────────────────────────────

/** The cycles of a permutation longer than 1, each from its smallest point: [[0, 1, 2], [3, 4]]. */
function cyclesOf(p: readonly number[]): number[][] {
  const seen = new Array<boolean>(p.length).fill(false);
  const cycles: number[][] = [];
  for (let start = 0; start < p.length; start++) {
    if (seen[start]) continue;
    const cycle: number[] = [];
    for (let x = start; !seen[x]; x = p[x]) {
      seen[x] = true;
      cycle.push(x);
    }
    if (cycle.length > 1) cycles.push(cycle);
  }
  return cycles;
}

/** The lengths of a permutation's cycles longer than 1, longest first: [3] for a 3-cycle, [2, 2] for two swaps. */
export function cycleType(p: readonly number[]): number[] {
  return cyclesOf(p)
    .map((c) => c.length)
    .sort((a, b) => b - a);
}

/** Cycle notation: "(0 1 2)(3 4)"; "()" for the identity. */
export function cycleNotation(p: readonly number[]): string {
  const cycles = cyclesOf(p);
  return cycles.length === 0 ? '()' : cycles.map((c) => `(${c.join(' ')})`).join('');
}

/**
 * One letter per cycle type, in reading order, with what it is as a rotation where the group is
 * a solid's rotation group (A4: tetrahedron, S4: cube, A5: icosahedron). The letter says the
 * element's kind at a glance (its order, and for the solids its turn); the subscript tells the
 * elements of a kind apart.
 */
const CYCLE_TYPES: readonly { type: string; letter: string; words: string }[] = [
  { type: '2', letter: 's', words: 'one swap' },
  { type: '2,2', letter: 'h', words: 'two swaps' },
  { type: '3', letter: 't', words: '3-cycle' },
  { type: '4', letter: 'q', words: '4-cycle' },
  { type: '3,2', letter: 'w', words: '3-cycle and a swap' },
  { type: '5', letter: 'f', words: '5-cycle' },
];

/** What each kind is as a rotation of the solid whose rotation group this is. */
const SOLID_TURNS: Readonly<Record<string, { solid: string; turns: Readonly<Record<string, string>> }>> = {
  A4: { solid: 'a tetrahedron', turns: { t: 'a third turn about a corner', h: 'a half turn about an edge axis' } },
  S4: {
    solid: 'a cube',
    turns: {
      q: 'a quarter turn about a face axis',
      h: 'a half turn about a face axis',
      t: 'a third turn about a corner',
      s: 'a half turn about an edge axis',
    },
  },
  A5: {
    solid: 'an icosahedron',
    turns: {
      f: 'a fifth turn about a corner',
      t: 'a third turn about a face axis',
      h: 'a half turn about an edge axis',
    },
  },
};

function cycleTypeDisplay(g: Magma): ElementDisplay {
  const perms = g.perms ?? [];
  const degree = perms[0]?.length ?? 0;
  const kinds = perms.map((p) => {
    const type = cycleType(p).join(',');
    const kind = CYCLE_TYPES.find((k) => k.type === type);
    if (type !== '' && !kind) throw new Error(`${g.name}: no name for cycle type [${type}]`);
    return kind ?? null;
  });
  const counts = new Map<string, number>();
  const names = kinds.map((kind) => {
    if (!kind) return 'e';
    const j = (counts.get(kind.letter) ?? 0) + 1;
    counts.set(kind.letter, j);
    return kind.letter + subscript(j);
  });
  const rank = (i: number): number => (kinds[i] ? CYCLE_TYPES.indexOf(kinds[i]!) + 1 : 0);
  const order = indexOrder(g.order).sort((i, j) => rank(i) - rank(j) || i - j);
  const solid = SOLID_TURNS[g.name];
  const present = CYCLE_TYPES.filter((k) => counts.has(k.letter));
  const legend = present.map((k) => {
    const turn = solid?.turns[k.letter];
    return `${k.letter}₁…${k.letter}${subscript(counts.get(k.letter)!)} = ${k.words}${turn ? ` (${turn})` : ''}`;
  });
  return {
    order,
    names,
    describe: perms.map((p) => `${cycleNotation(p)}: ${describePermutation(p)}`),
    key: `${solid ? `rotations of ${solid.solid}, as permutations of 0…${degree - 1}` : `permutations of 0…${degree - 1}`}: e = identity · ${legend.join(' · ')} · xy = x first, then y`,
  };
}

/** Q8's token names are the quaternions themselves; shown as such, with a proper minus sign. */
function quaternionDisplay(g: Magma): ElementDisplay {
  const quaternion = g.elementNames.map((t) => t.replace('-', '−'));
  return {
    order: indexOrder(g.order),
    names: quaternion,
    describe: quaternion.map((q, i) => `the quaternion ${q} (token ${g.elementNames[i]})`),
    key: 'quaternions: 1, −1, i, −i, j, −j, k, −k with i² = j² = k² = ijk = −1',
  };
}

function quasigroupDisplay(g: Magma): ElementDisplay {
  const names = letterNames(g.order);
  const row = (a: number): string => g.table[a].map((ab, b) => `${names[a]}·${names[b]} = ${names[ab]}`).join(', ');
  return {
    order: indexOrder(g.order),
    names,
    describe: names.map((_, a) => `token ${g.elementNames[a]}; ${row(a)}`),
    key: `${names[0]} … ${names[names.length - 1]}: elements of a Latin square (no identity, not associative; a chain is multiplied left to right)`,
  };
}

/** The display names of a group's elements, or `fallback` (the token strings) for a name this file does not know. */
export function displayNames(groupName: string, fallback: readonly string[]): readonly string[] {
  try {
    return elementDisplay(groupName).names;
  } catch {
    return fallback;
  }
}
