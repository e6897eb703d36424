import { describe, expect, it } from 'vitest';
import { GROUP_NAMES, getGroup, parseGroupName } from './groups';
import {
  cycleNotation,
  cycleType,
  describePermutation,
  dihedralWord,
  elementDisplay,
  letterName,
  oneLine,
  subscript,
  superscript,
} from './names';

const SUP = '⁰¹²³⁴⁵⁶⁷⁸⁹';

/** "sr²" → {a: 1, b: 2}; "e" → {a: 0, b: 0}. */
function parseWord(name: string): { a: 0 | 1; b: number } {
  if (name === 'e') return { a: 0, b: 0 };
  const m = /^(s?)(?:r([⁰¹²³⁴⁵⁶⁷⁸⁹]*))?$/u.exec(name);
  if (!m || name === '') throw new Error(`not a word: ${name}`);
  const hasR = name.includes('r');
  const exp = m[2] ? Number([...m[2]].map((ch) => SUP.indexOf(ch)).join('')) : hasR ? 1 : 0;
  return { a: m[1] ? 1 : 0, b: exp };
}

/** (s^a1 r^b1)(s^a2 r^b2) = s^(a1+a2) r^(±b1 + b2): moving r^b1 past s flips its sign (r s = s r⁻¹). */
function multiplyWords(x: { a: 0 | 1; b: number }, y: { a: 0 | 1; b: number }, n: number): { a: 0 | 1; b: number } {
  const b1 = y.a === 1 ? -x.b : x.b;
  return { a: ((x.a + y.a) % 2) as 0 | 1, b: (((b1 + y.b) % n) + n) % n };
}

const POLYGON_GROUPS = GROUP_NAMES.filter((name) => {
  const p = parseGroupName(name);
  return p !== null && (p.family === 'Z' || p.family === 'D' || name === 'S3');
});

describe('S3 display names', () => {
  const g = getGroup('S3');
  const d = elementDisplay('S3');
  const idx = (name: string): number => d.names.indexOf(name);

  it('are e, r, r², s, sr, sr²', () => {
    expect([...d.names].sort()).toEqual(['e', 'r', 'r²', 's', 'sr', 'sr²'].sort());
    expect(d.names[0]).toBe('e');
    expect(d.order.map((i) => d.names[i])).toEqual(['e', 'r', 'r²', 's', 'sr', 'sr²']);
  });

  it('agree with the table and its right-action convention', () => {
    const [r, r2, s, sr, sr2] = ['r', 'r²', 's', 'sr', 'sr²'].map(idx);
    expect(g.table[r][r]).toBe(r2);
    expect(g.table[r2][r]).toBe(0);
    expect(g.table[s][s]).toBe(0);
    expect(g.table[s][r]).toBe(sr);
    expect(g.table[s][r2]).toBe(sr2);
    // r s = s r⁻¹ = s r².
    expect(g.table[r][s]).toBe(sr2);
  });

  it('r is the rotation 0→1→2→0, s the reflection swapping 1 and 2 (hover texts)', () => {
    expect(d.describe[idx('r')]).toBe('0→1, 1→2, 2→0 (one-line 120)');
    expect(d.describe[idx('s')]).toBe('0→0, 1→2, 2→1 (one-line 021)');
    expect(d.describe[0]).toBe('0→0, 1→1, 2→2 (one-line 012)');
    // Acting on the right: "sr" applies s first, then r.
    const perm = getGroup('S3').perms!;
    expect(perm[idx('sr')]).toEqual(perm[idx('s')].map((x) => perm[idx('r')][x]));
  });

  it('names the same permutations as D3', () => {
    const d3 = getGroup('D3');
    const d3names = elementDisplay('D3').names;
    for (const [i, p] of g.perms!.entries()) {
      const j = d3.perms!.findIndex((q) => q.join() === p.join());
      expect(d3names[j]).toBe(d.names[i]);
    }
  });
});

describe('rotation/reflection names (Z_n, D_n, S3)', () => {
  it('every product of two names is the name of the table entry', () => {
    for (const name of POLYGON_GROUPS) {
      const g = getGroup(name);
      const { names } = elementDisplay(name);
      const n = name === 'S3' ? 3 : parseGroupName(name)!.n;
      for (let i = 0; i < g.order; i++) {
        for (let j = 0; j < g.order; j++) {
          const w = multiplyWords(parseWord(names[i]), parseWord(names[j]), n);
          expect(names[g.table[i][j]], `${name}: ${names[i]}·${names[j]}`).toBe(dihedralWord(w.a, w.b));
        }
      }
    }
  });

  it("in D_n, s·rᵇ is the task's reflection s_b and rᵇ its rotation r_b", () => {
    for (const n of [3, 4, 5, 8]) {
      const g = getGroup(`D${n}`);
      const { names, describe } = elementDisplay(`D${n}`);
      for (let b = 0; b < n; b++) {
        expect(names[g.elementNames.indexOf(`r${b}`)]).toBe(dihedralWord(0, b));
        expect(names[g.elementNames.indexOf(`s${b}`)]).toBe(dihedralWord(1, b));
      }
      expect(describe[g.elementNames.indexOf('s2')]).toBe(`reflection x ↦ 2−x mod ${n} (token s2)`);
      expect(describe[g.elementNames.indexOf('r1')]).toBe(`rotate 1 step: x ↦ x+1 mod ${n} (token r1)`);
    }
  });

  it('Z12 uses two-digit superscripts', () => {
    const { names } = elementDisplay('Z12');
    expect(names.slice(0, 4)).toEqual(['e', 'r', 'r²', 'r³']);
    expect(names[10]).toBe('r¹⁰');
    expect(names[11]).toBe('r¹¹');
  });
});

describe('cycle-type names (S4, A4, A5, S5) and quaternions (Q8)', () => {
  it('cycleType and cycleNotation, by hand', () => {
    expect(cycleType([0, 1, 2, 3])).toEqual([]);
    expect(cycleType([1, 0, 3, 2])).toEqual([2, 2]);
    expect(cycleType([1, 2, 0, 4, 3])).toEqual([3, 2]);
    expect(cycleNotation([1, 2, 0, 4, 3])).toBe('(0 1 2)(3 4)');
    expect(cycleNotation([0, 1, 2])).toBe('()');
  });

  it("each element is named by its kind (cycle type) and its number within the kind; every name's letter matches its permutation", () => {
    const letterOf: Record<string, string> = { '2': 's', '2,2': 'h', '3': 't', '4': 'q', '3,2': 'w', '5': 'f' };
    for (const name of ['S4', 'A4', 'A5', 'S5']) {
      const g = getGroup(name);
      const d = elementDisplay(name);
      expect(d.names[0]).toBe('e');
      g.perms!.forEach((p, i) => {
        if (i === 0) return;
        expect(d.names[i]).toMatch(new RegExp(`^${letterOf[cycleType(p).join(',')]}[₁-₉][₀-₉]*$`, 'u'));
        expect(d.describe[i]).toBe(`${cycleNotation(p)}: ${describePermutation(p)}`);
      });
      expect(new Set(d.names).size).toBe(g.order);
    }
    // A4 = the tetrahedron's 12 rotations: 8 third turns (3-cycles), 3 half turns (two swaps).
    const a4 = elementDisplay('A4');
    expect(a4.order.map((i) => a4.names[i])).toEqual([
      'e',
      'h₁',
      'h₂',
      'h₃',
      't₁',
      't₂',
      't₃',
      't₄',
      't₅',
      't₆',
      't₇',
      't₈',
    ]);
    expect(a4.key).toContain('rotations of a tetrahedron');
    expect(a4.key).toContain('t₁…t₈ = 3-cycle (a third turn about a corner)');
    // A5 = the icosahedron's 60: 15 half turns, 20 third turns, 24 fifth turns.
    const a5 = elementDisplay('A5').names;
    expect(['h', 't', 'f'].map((k) => a5.filter((x) => x.startsWith(k)).length)).toEqual([15, 20, 24]);
    expect(elementDisplay('S4').key).toContain('q₁…q₆ = 4-cycle (a quarter turn about a face axis)');
    expect(elementDisplay('S5').key).toContain('w₁…w₂₀ = 3-cycle and a swap');
  });

  it('Q8: the quaternions themselves, with a proper minus sign', () => {
    const d = elementDisplay('Q8');
    expect(d.names).toEqual(['1', '−1', 'i', '−i', 'j', '−j', 'k', '−k']);
    expect(d.describe[3]).toBe('the quaternion −i (token -i)');
    expect(d.key).toContain('i² = j² = k² = ijk = −1');
  });

  it('letterName (quasigroups): 25 letters a round, the round as a subscript', () => {
    expect([0, 3, 4, 24, 25, 49, 50].map(letterName)).toEqual(['a', 'd', 'f', 'z', 'a₁', 'z₁', 'a₂']);
  });

  it('quasigroups: letters only (no identity, no e), the table row on hover', () => {
    const d = elementDisplay('quasi5');
    expect(d.names).toEqual(['a', 'b', 'c', 'd', 'f']);
    const t = getGroup('quasi5').table;
    expect(d.describe[0]).toContain(`a·b = ${d.names[t[0][1]]}`);
    expect(d.describe[0].startsWith('token q0;')).toBe(true);
  });
});

describe('every group', () => {
  it('has one unique name and one hover text per element, and a key', () => {
    for (const name of GROUP_NAMES) {
      const g = getGroup(name);
      const d = elementDisplay(name);
      expect(d.names).toHaveLength(g.order);
      expect(new Set(d.names).size).toBe(g.order);
      expect(d.describe).toHaveLength(g.order);
      expect(d.describe.every((x) => x.length > 0)).toBe(true);
      expect(d.key.length).toBeGreaterThan(0);
      expect([...d.order].sort((x, y) => x - y)).toEqual(Array.from({ length: g.order }, (_, i) => i));
      if (g.isGroup) expect(d.names[0]).toBe(name === 'Q8' ? '1' : 'e');
      else expect(d.names).not.toContain('e');
    }
  });

  it('throws on an unknown group', () => {
    expect(() => elementDisplay('X9')).toThrow(/unknown group/);
  });
});

describe('helpers', () => {
  it('super- and subscripts, one-line notation', () => {
    expect(superscript(2)).toBe('²');
    expect(superscript(11)).toBe('¹¹');
    expect(subscript(16)).toBe('₁₆');
    expect(dihedralWord(0, 0)).toBe('e');
    expect(dihedralWord(1, 0)).toBe('s');
    expect(dihedralWord(1, 1)).toBe('sr');
    expect(dihedralWord(0, 3)).toBe('r³');
    expect(oneLine([1, 2, 0])).toBe('120');
    expect(oneLine([10, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9])).toBe('10 0 1 2 3 4 5 6 7 8 9');
  });
});
