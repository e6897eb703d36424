// Finite groups and quasigroups for the groupmul task.
//
// Convention: elements act on the right, (g·h)(x) = h(g(x)), so a chain g1 g2 … gk means
// "apply g1 first". Permutations are in one-line notation: p[i] is the image of i, and
// (a·b)[x] = b[a[x]]. In every group element 0 is the identity. A quasigroup is only a Latin
// square (no identity, not associative); chains over it are folded left, ((a*b)*c)*….

import { makeRng } from '../../core/random';

/** A finite binary operation: table[a][b] = a·b over elements 0..order-1. */
export interface Magma {
  /** Parameter spelling, e.g. "S3", "D4", "quasi5". */
  readonly name: string;
  readonly order: number;
  /** index → token text (no spaces, unique). */
  readonly elementNames: readonly string[];
  readonly table: readonly (readonly number[])[];
  /** One-line permutations, for permutation groups only. */
  readonly perms?: readonly (readonly number[])[];
  /** True for groups (element 0 is the identity); false for quasigroups. */
  readonly isGroup: boolean;
}

type Family = 'Z' | 'D' | 'S' | 'A' | 'Q' | 'quasi';

const FAMILY_RANGES: readonly { family: Family; prefix: string; lo: number; hi: number }[] = [
  { family: 'Z', prefix: 'Z', lo: 2, hi: 12 },
  { family: 'D', prefix: 'D', lo: 3, hi: 8 },
  { family: 'quasi', prefix: 'quasi', lo: 2, hi: 8 },
];

/** Every accepted group name, in display order. */
export const GROUP_NAMES: readonly string[] = [
  ...range(2, 12).map((n) => `Z${n}`),
  ...range(3, 8).map((n) => `D${n}`),
  'S3',
  'S4',
  'A4',
  'A5',
  'S5',
  'Q8',
  ...range(2, 8).map((n) => `quasi${n}`),
];

/** The allowed group names in words, for error messages. */
export const GROUP_NAMES_TEXT = 'Z<n> (n 2..12), D<n> (n 3..8), S3, S4, A4, A5, S5, Q8, quasi<n> (n 2..8)';

function range(lo: number, hi: number): number[] {
  return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
}

/** Splits a group name into family and size; null when it is not an accepted name. */
export function parseGroupName(name: string): { family: Family; n: number } | null {
  if (name === 'S3') return { family: 'S', n: 3 };
  if (name === 'S4') return { family: 'S', n: 4 };
  if (name === 'A4') return { family: 'A', n: 4 };
  if (name === 'A5') return { family: 'A', n: 5 };
  if (name === 'S5') return { family: 'S', n: 5 };
  if (name === 'Q8') return { family: 'Q', n: 8 };
  for (const { family, prefix, lo, hi } of FAMILY_RANGES) {
    const m = new RegExp(`^${prefix}(\\d+)$`).exec(name);
    if (m && !m[1].startsWith('0')) {
      const n = Number(m[1]);
      if (n >= lo && n <= hi) return { family, n };
    }
  }
  return null;
}

// ---- Permutations ----

/** (a·b)[x] = b[a[x]]: apply a, then b. */
export function composeRight(a: readonly number[], b: readonly number[]): number[] {
  return a.map((ax) => b[ax]);
}

function isEven(p: readonly number[]): boolean {
  let inversions = 0;
  for (let i = 0; i < p.length; i++) for (let j = i + 1; j < p.length; j++) if (p[i] > p[j]) inversions++;
  return inversions % 2 === 0;
}

/** All permutations of 0..n-1 in lexicographic order (the identity first). */
function allPermutations(n: number): number[][] {
  const out: number[][] = [];
  const rec = (prefix: number[], rest: number[]): void => {
    if (rest.length === 0) out.push(prefix);
    rest.forEach((x, i) => rec([...prefix, x], [...rest.slice(0, i), ...rest.slice(i + 1)]));
  };
  rec([], range(0, n - 1));
  return out;
}

/** Builds the Cayley table of a permutation group; throws if the set is not closed. */
export function permutationGroup(name: string, perms: number[][], elementNames: string[]): Magma {
  const index = new Map(perms.map((p, i) => [p.join(','), i] as const));
  const table = perms.map((a) =>
    perms.map((b) => {
      const i = index.get(composeRight(a, b).join(','));
      if (i === undefined) throw new Error(`group ${name} is not closed under composition`);
      return i;
    }),
  );
  return { name, order: perms.length, elementNames, table, perms, isGroup: true };
}

/** Z_n: rotations r_i(x) = x + i mod n. */
function cyclic(n: number): Magma {
  const perms = range(0, n - 1).map((i) => range(0, n - 1).map((x) => (x + i) % n));
  return permutationGroup(
    `Z${n}`,
    perms,
    perms.map((_, i) => `r${i}`),
  );
}

/** D_n acting on the n vertices of a polygon: rotations r_i(x) = x+i, reflections s_i(x) = i-x (mod n). */
function dihedral(n: number): Magma {
  const xs = range(0, n - 1);
  const rotations = xs.map((i) => xs.map((x) => (x + i) % n));
  const reflections = xs.map((i) => xs.map((x) => (((i - x) % n) + n) % n));
  const names = [...xs.map((i) => `r${i}`), ...xs.map((i) => `s${i}`)];
  return permutationGroup(`D${n}`, [...rotations, ...reflections], names);
}

/** S_n or A_n, elements named by their one-line notation, e.g. p102. */
function symmetric(n: number, evenOnly: boolean): Magma {
  const perms = allPermutations(n).filter((p) => !evenOnly || isEven(p));
  return permutationGroup(
    `${evenOnly ? 'A' : 'S'}${n}`,
    perms,
    perms.map((p) => `p${p.join('')}`),
  );
}

/**
 * Q8 = {±1, ±i, ±j, ±k} through its right regular representation: element g is the permutation
 * x ↦ x·g of the 8 elements, so the table is the Hamilton product a·b.
 */
function quaternion(): Magma {
  const names = ['1', '-1', 'i', '-i', 'j', '-j', 'k', '-k'];
  // Units 1, i, j, k as 0..3; unitProduct[u][v] = [sign, unit] of u·v.
  const unitProduct: [number, number][][] = [
    [
      [1, 0],
      [1, 1],
      [1, 2],
      [1, 3],
    ],
    [
      [1, 1],
      [-1, 0],
      [1, 3],
      [-1, 2],
    ],
    [
      [1, 2],
      [-1, 3],
      [-1, 0],
      [1, 1],
    ],
    [
      [1, 3],
      [1, 2],
      [-1, 1],
      [-1, 0],
    ],
  ];
  const times = (a: number, b: number): number => {
    const [sign, unit] = unitProduct[a >> 1][b >> 1];
    const negative = sign < 0 !== (((a & 1) ^ (b & 1)) === 1);
    return 2 * unit + (negative ? 1 : 0);
  };
  const elements = range(0, 7);
  const perms = elements.map((g) => elements.map((x) => times(x, g)));
  return permutationGroup('Q8', perms, names);
}

// ---- Quasigroups ----

/** Fixed seed of the quasigroup tables: quasi<n> is the same table in every run. */
export const QUASI_TABLE_SEED = 0x9a5e1;

/**
 * A seeded random Latin square of order n that is not a group (n ≥ 3). Start from the cyclic
 * square, apply random row-cycle and column-cycle switches (each keeps the square Latin and moves
 * it away from the group table), then permute rows, columns and symbols at random; retry until
 * the operation is not associative. Order 2 has only group-isotopic squares, so quasi2 is Z2 in
 * disguise. Deterministic: drawn from makeRng(QUASI_TABLE_SEED, n).
 */
export function randomQuasigroupTable(n: number): number[][] {
  const rng = makeRng(QUASI_TABLE_SEED, n);
  const shuffled = (m: number): number[] => {
    const a = range(0, m - 1);
    for (let i = m - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a;
  };
  for (let attempt = 0; ; attempt++) {
    let t = range(0, n - 1).map((r) => range(0, n - 1).map((c) => (r + c) % n));
    for (let s = 0; s < 4 * n; s++) {
      t = rowCycleSwitch(t, rng.int(n), rng.int(n), rng.int(n));
      t = transpose(rowCycleSwitch(transpose(t), rng.int(n), rng.int(n), rng.int(n)));
    }
    const rows = shuffled(n);
    const cols = shuffled(n);
    const symbols = shuffled(n);
    t = rows.map((r) => cols.map((c) => symbols[t[r][c]]));
    if (n < 3 || !isAssociative(t) || attempt > 1000) return t;
  }
}

/**
 * Swaps rows r1 and r2 on the columns of one cycle of the permutation L[r1][c] → L[r2][c],
 * starting at column c. Both rows keep the same symbols, each column swaps two entries: still Latin.
 */
function rowCycleSwitch(t: number[][], r1: number, r2: number, c: number): number[][] {
  if (r1 === r2) return t;
  const out = t.map((row) => [...row]);
  const colOfSymbolInR1 = new Map(t[r1].map((v, col) => [v, col] as const));
  let col = c;
  do {
    out[r1][col] = t[r2][col];
    out[r2][col] = t[r1][col];
    col = colOfSymbolInR1.get(t[r2][col]) as number;
  } while (col !== c);
  return out;
}

function transpose(t: number[][]): number[][] {
  return t[0].map((_, c) => t.map((row) => row[c]));
}

function quasigroup(n: number): Magma {
  return {
    name: `quasi${n}`,
    order: n,
    elementNames: range(0, n - 1).map((i) => `q${i}`),
    table: randomQuasigroupTable(n),
    isGroup: false,
  };
}

// ---- Lookup (memoised: tables are built once per name) ----

const cache = new Map<string, Magma>();

/** The group or quasigroup with this parameter name; throws on an unknown name. */
export function getGroup(name: string): Magma {
  const hit = cache.get(name);
  if (hit) return hit;
  const parsed = parseGroupName(name);
  if (!parsed) throw new Error(`unknown group "${name}"; allowed: ${GROUP_NAMES_TEXT}`);
  const { family, n } = parsed;
  const built =
    family === 'Z'
      ? cyclic(n)
      : family === 'D'
        ? dihedral(n)
        : family === 'S'
          ? symmetric(n, false)
          : family === 'A'
            ? symmetric(n, true)
            : family === 'Q'
              ? quaternion()
              : quasigroup(n);
  cache.set(name, built);
  return built;
}

// ---- Algebra checks and chain products ----

export function isLatinSquare(t: readonly (readonly number[])[]): boolean {
  const n = t.length;
  const full = (xs: readonly number[]): boolean =>
    xs.length === n && new Set(xs).size === n && xs.every((x) => Number.isInteger(x) && x >= 0 && x < n);
  return t.every((row) => full(row)) && t.every((_, c) => full(t.map((row) => row[c])));
}

export function isAssociative(t: readonly (readonly number[])[]): boolean {
  const n = t.length;
  for (let a = 0; a < n; a++)
    for (let b = 0; b < n; b++) for (let c = 0; c < n; c++) if (t[t[a][b]][c] !== t[a][t[b][c]]) return false;
  return true;
}

export function isCommutative(t: readonly (readonly number[])[]): boolean {
  return t.every((row, a) => row.every((ab, b) => ab === t[b][a]));
}

/** The two-sided identity, or -1. */
export function findIdentity(t: readonly (readonly number[])[]): number {
  const n = t.length;
  for (let e = 0; e < n; e++) {
    let ok = true;
    for (let x = 0; x < n && ok; x++) ok = t[e][x] === x && t[x][e] === x;
    if (ok) return e;
  }
  return -1;
}

/** The subgroup generated by `generators` (a finite group: closing under the product gives the inverses too). */
export function generatedSubgroup(t: readonly (readonly number[])[], generators: Iterable<number>): number[] {
  const gens = [...new Set(generators)];
  const identity = findIdentity(t);
  const seen = new Set<number>([identity]);
  const queue = [identity];
  for (let i = 0; i < queue.length; i++) {
    for (const g of gens) {
      const next = t[queue[i]][g];
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return [...seen].sort((a, b) => a - b);
}

/** [H, H]: the subgroup generated by the commutators a⁻¹b⁻¹ab of elements of H. */
function commutatorSubgroup(t: readonly (readonly number[])[], h: readonly number[]): number[] {
  const identity = findIdentity(t);
  const inverse = (a: number): number => t[a].indexOf(identity);
  const commutators = new Set<number>();
  for (const a of h) for (const b of h) commutators.add(t[t[t[inverse(a)][inverse(b)]][a]][b]);
  return generatedSubgroup(t, commutators);
}

/**
 * Orders of the derived series G ⊇ G′ ⊇ G″ ⊇ …, down to the first term that no longer shrinks.
 * It ends at 1 exactly when the group is solvable: S4 gives 24, 12, 4, 1; A5 (perfect) gives 60.
 */
export function derivedSeriesOrders(t: readonly (readonly number[])[]): number[] {
  let h = t.map((_, i) => i);
  const orders = [h.length];
  for (;;) {
    const next = commutatorSubgroup(t, h);
    if (next.length === h.length) return orders;
    orders.push(next.length);
    h = next;
  }
}

/**
 * Whether the derived series reaches 1. It separates the chains a constant-depth circuit can
 * multiply: the word problem of a solvable group is in ACC⁰, that of a non-solvable one (A5, S5)
 * is NC¹-complete (Barrington 1989).
 */
export function isSolvable(t: readonly (readonly number[])[]): boolean {
  const orders = derivedSeriesOrders(t);
  return orders[orders.length - 1] === 1;
}

/** Left fold ((x1·x2)·x3)·…; the chain must be non-empty. */
export function foldLeft(t: readonly (readonly number[])[], chain: readonly number[]): number {
  let acc = chain[0];
  for (let i = 1; i < chain.length; i++) acc = t[acc][chain[i]];
  return acc;
}

/** prefix[L-1] = x1·…·xL read left to right (left fold). */
export function prefixProducts(t: readonly (readonly number[])[], chain: readonly number[]): number[] {
  const out: number[] = [];
  let acc = -1;
  chain.forEach((x, i) => {
    acc = i === 0 ? x : t[acc][x];
    out.push(acc);
  });
  return out;
}

/** suffix[L-1] = x_{k-L+1}·(…·x_k), the running product read right to left (right fold). */
export function suffixProducts(t: readonly (readonly number[])[], chain: readonly number[]): number[] {
  const out: number[] = [];
  let acc = -1;
  for (let i = chain.length - 1; i >= 0; i--) {
    acc = i === chain.length - 1 ? chain[i] : t[chain[i]][acc];
    out.push(acc);
  }
  return out;
}
