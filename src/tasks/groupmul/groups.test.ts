import { describe, expect, it } from 'vitest';
import {
  composeRight,
  derivedSeriesOrders,
  findIdentity,
  generatedSubgroup,
  foldLeft,
  getGroup,
  GROUP_NAMES,
  isAssociative,
  isCommutative,
  isLatinSquare,
  isSolvable,
  parseGroupName,
  prefixProducts,
  randomQuasigroupTable,
  suffixProducts,
} from './groups';

const groupNames = GROUP_NAMES.filter((n) => !n.startsWith('quasi'));
const quasiNames = GROUP_NAMES.filter((n) => n.startsWith('quasi'));

function expectedOrder(name: string): number {
  const p = parseGroupName(name);
  if (!p) throw new Error(name);
  const factorial = (n: number): number => (n <= 1 ? 1 : n * factorial(n - 1));
  return { Z: p.n, D: 2 * p.n, S: factorial(p.n), A: factorial(p.n) / 2, Q: 8, quasi: p.n }[p.family];
}

describe.each(groupNames)('group %s', (name) => {
  const g = getGroup(name);
  const n = g.order;
  const t = g.table;

  it('has the stated order and unique, space-free element names', () => {
    expect(n).toBe(expectedOrder(name));
    expect(t.length).toBe(n);
    expect(new Set(g.elementNames).size).toBe(n);
    for (const e of g.elementNames) expect(e).toMatch(/^\S+$/);
  });

  it('satisfies the group axioms with identity 0', () => {
    for (const row of t) for (const ab of row) expect(Number.isInteger(ab) && ab >= 0 && ab < n).toBe(true); // closure
    expect(isAssociative(t)).toBe(true);
    expect(findIdentity(t)).toBe(0);
    for (let a = 0; a < n; a++) {
      const inv = t[a].indexOf(0);
      expect(inv).toBeGreaterThanOrEqual(0);
      expect(t[inv][a]).toBe(0);
    }
    expect(isLatinSquare(t)).toBe(true);
  });

  it('multiplies by the right action (a·b)(x) = b(a(x)) on its permutations', () => {
    const perms = g.perms;
    expect(perms).toBeDefined();
    if (!perms) return;
    expect(new Set(perms.map((p) => p.join(','))).size).toBe(n);
    // One expect over the whole table (S5 has 14,400 products).
    const wrong: string[] = [];
    for (let a = 0; a < n; a++)
      for (let b = 0; b < n; b++) {
        const image = perms[a].map((ax) => perms[b][ax]);
        if (perms[t[a][b]].join(',') !== image.join(',')) wrong.push(`${g.elementNames[a]}·${g.elementNames[b]}`);
      }
    expect(wrong).toEqual([]);
  });
});

describe('group families', () => {
  it('S3, D4, Q8, S4, A4, D_n are non-abelian; Z_n are abelian', () => {
    for (const name of ['S3', 'D4', 'Q8', 'S4', 'A4', 'D3', 'D5', 'D8'])
      expect(isCommutative(getGroup(name).table)).toBe(false);
    for (let n = 2; n <= 12; n++) expect(isCommutative(getGroup(`Z${n}`).table)).toBe(true);
  });

  it('tells Q8 from D4: Q8 has one element of order 2, D4 has five', () => {
    const involutions = (name: string): number => {
      const t = getGroup(name).table;
      return t.filter((row, a) => a !== 0 && row[a] === 0).length;
    };
    expect(involutions('Q8')).toBe(1);
    expect(involutions('D4')).toBe(5);
  });

  it('Q8 multiplies like the quaternions: i·j = k, j·i = −k, i·i = −1', () => {
    const g = getGroup('Q8');
    const idx = (s: string): number => g.elementNames.indexOf(s);
    expect(g.table[idx('i')][idx('j')]).toBe(idx('k'));
    expect(g.table[idx('j')][idx('i')]).toBe(idx('-k'));
    expect(g.table[idx('i')][idx('i')]).toBe(idx('-1'));
    expect(g.table[idx('k')][idx('i')]).toBe(idx('j'));
  });

  it('A4 is the even half of S4', () => {
    const s4 = getGroup('S4').perms ?? [];
    const a4 = getGroup('A4').perms ?? [];
    const key = (p: readonly number[]): string => p.join('');
    expect(a4.every((p) => s4.some((q) => key(q) === key(p)))).toBe(true);
    expect(getGroup('A4').elementNames[0]).toBe('p0123');
  });

  it('A5 and S5: orders 60 and 120, A5 the even half of S5, one-line names', () => {
    const a5 = getGroup('A5');
    const s5 = getGroup('S5');
    expect([a5.order, s5.order]).toEqual([60, 120]);
    const inS5 = new Set(s5.elementNames);
    expect(a5.elementNames.every((name) => inS5.has(name))).toBe(true);
    expect(a5.elementNames[0]).toBe('p01234');
    expect(s5.elementNames.slice(0, 3)).toEqual(['p01234', 'p01243', 'p01324']);
    // A 3-cycle is even, a transposition is not.
    expect(a5.elementNames).toContain('p12034');
    expect(a5.elementNames).not.toContain('p10234');
  });

  it('the derived series: S3, S4, A4, D_n, Q8 are solvable; A5 is perfect and S5 stops at A5', () => {
    expect(derivedSeriesOrders(getGroup('S3').table)).toEqual([6, 3, 1]);
    expect(derivedSeriesOrders(getGroup('S4').table)).toEqual([24, 12, 4, 1]);
    expect(derivedSeriesOrders(getGroup('A4').table)).toEqual([12, 4, 1]);
    expect(derivedSeriesOrders(getGroup('A5').table)).toEqual([60]);
    expect(derivedSeriesOrders(getGroup('S5').table)).toEqual([120, 60]);
    for (const name of ['S3', 'S4', 'A4', 'Q8', 'D5', 'Z7']) expect(isSolvable(getGroup(name).table), name).toBe(true);
    for (const name of ['A5', 'S5']) expect(isSolvable(getGroup(name).table), name).toBe(false);
  });

  it('generatedSubgroup closes a generating set: a 5-cycle and a 3-cycle generate A5', () => {
    const g = getGroup('A5');
    const idx = (name: string): number => g.elementNames.indexOf(name);
    expect(generatedSubgroup(g.table, [idx('p12340')])).toHaveLength(5);
    expect(generatedSubgroup(g.table, [idx('p12340'), idx('p12034')])).toHaveLength(60);
  });

  it('names elements readably', () => {
    expect(getGroup('Z4').elementNames).toEqual(['r0', 'r1', 'r2', 'r3']);
    expect(getGroup('D3').elementNames).toEqual(['r0', 'r1', 'r2', 's0', 's1', 's2']);
    expect(getGroup('S3').elementNames).toEqual(['p012', 'p021', 'p102', 'p120', 'p201', 'p210']);
    expect(getGroup('Q8').elementNames).toEqual(['1', '-1', 'i', '-i', 'j', '-j', 'k', '-k']);
  });

  it('composes permutations left to right', () => {
    // Swap 0,1 then cycle 0→1→2→0: 0 ↦ 1 ↦ 2.
    expect(composeRight([1, 0, 2], [1, 2, 0])).toEqual([2, 1, 0]);
  });

  it('rejects names outside the ranges', () => {
    for (const bad of ['Z1', 'Z13', 'D2', 'D9', 'S6', 'A6', 'A3', 'S2', 'Q16', 'quasi1', 'quasi9', 'Z05', 's3', ''])
      expect(parseGroupName(bad)).toBeNull();
    expect(() => getGroup('Z13')).toThrow(/unknown group "Z13"/);
  });
});

describe.each(quasiNames)('quasigroup %s', (name) => {
  const g = getGroup(name);

  it('is a Latin square of the stated order, with no permutations', () => {
    expect(g.order).toBe(expectedOrder(name));
    expect(isLatinSquare(g.table)).toBe(true);
    expect(g.perms).toBeUndefined();
    expect(g.isGroup).toBe(false);
    expect(g.elementNames).toEqual(Array.from({ length: g.order }, (_, i) => `q${i}`));
  });

  it('is not a group (not associative) from order 3 up', () => {
    if (g.order >= 3) expect(isAssociative(g.table)).toBe(false);
  });

  it('is the same table on every build (fixed table seed)', () => {
    expect(randomQuasigroupTable(g.order)).toEqual(g.table);
  });
});

it('pins the quasigroup tables so prompts stay comparable across versions', () => {
  expect(getGroup('quasi3').table).toEqual([
    [2, 1, 0],
    [1, 0, 2],
    [0, 2, 1],
  ]);
  expect(getGroup('quasi5').table).toEqual([
    [0, 3, 1, 4, 2],
    [1, 2, 3, 0, 4],
    [2, 0, 4, 3, 1],
    [3, 4, 2, 1, 0],
    [4, 1, 0, 2, 3],
  ]);
});

it('folds chains left and computes running products both ways', () => {
  const t = getGroup('quasi4').table;
  const chain = [1, 2, 3, 0];
  expect(foldLeft(t, chain)).toBe(t[t[t[1][2]][3]][0]);
  expect(prefixProducts(t, chain)).toEqual([1, t[1][2], t[t[1][2]][3], t[t[t[1][2]][3]][0]]);
  expect(suffixProducts(t, chain)).toEqual([0, t[3][0], t[2][t[3][0]], t[1][t[2][t[3][0]]]]);
});
