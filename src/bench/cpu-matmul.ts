// `npm run bench -- cpu-matmul`: the CPU engine's matmul (src/reference/ops.ts) against its
// one-output-at-a-time definition, on every matmul shape of a train step and of a decoding
// step. The CPU engine is mostly matmul (71% of a maze-lesson train step's time before the
// loops were rearranged), so this ratio is most of its speed. Both give the same bits (a test
// checks it); the suite times them interleaved (A B A B …) on the same inputs and reports
// medians. It uses no GPU.

import type { BenchSuite } from './suite';
import { intFlag } from '../core/flags';
import { median } from '../core/numeric';
import { matmul, matmulDefinition } from '../reference/ops';
import { formatTable, sig3 } from './text-table';

/** One matmul call: out[M,N] = op(a)[M,K]·op(b)[K,N]. */
interface Shape {
  name: string;
  M: number;
  K: number;
  N: number;
  transA: boolean;
  transB: boolean;
}

/** The calls of one layer and the head (src/reference/model.ts, sampler.ts) for R rows, width C, vocab V, D decoding rows. */
export function cpuMatmulShapes(R: number, C: number, V: number, D: number): Shape[] {
  const s = (name: string, M: number, K: number, N: number, transA = false, transB = false): Shape => ({
    name,
    M,
    K,
    N,
    transA,
    transB,
  });
  return [
    s('fwd qkv', R, C, 3 * C),
    s('fwd attproj', R, C, C),
    s('fwd fc', R, C, 4 * C),
    s('fwd fcproj', R, 4 * C, C),
    s('fwd head', R, C, V, false, true),
    s('bwd head input', R, V, C),
    s('bwd head weight', V, R, C, true),
    s('bwd fcproj weight', 4 * C, R, C, true),
    s('bwd fcproj input', R, C, 4 * C, false, true),
    s('bwd qkv weight', C, R, 3 * C, true),
    s('bwd qkv input', R, 3 * C, C, false, true),
    s('decode qkv', D, C, 3 * C),
    s('decode head', D, C, V, false, true),
  ];
}

export const cpuMatmulSuite: BenchSuite = {
  name: 'cpu-matmul',
  summary: "the CPU engine's matmul against its definition, on a train step's shapes (no GPU)",
  flags: {
    rows: {
      kind: 'value',
      doc: "rows of a train step, B·G·T (default 4096: the maze lessons' 32 × 4 walks of up to 55 tokens hold 4,000–7,000; --quick 512)",
    },
    width: { kind: 'value', doc: "the model width C (default 32, the maze lessons' model)" },
    vocab: { kind: 'value', doc: "the vocabulary V (default 113, the 4×4 maze's)" },
  },
  async run(_gpu, opts) {
    const R = intFlag(opts.flags, 'rows', opts.quick ? 512 : 4096, 1, 1 << 16);
    const C = intFlag(opts.flags, 'width', 32, 1, 1024);
    const V = intFlag(opts.flags, 'vocab', 113, 1, 1 << 16);
    const D = 128; // decoding rows: 32 prompts × 4 samples
    let seed = 1;
    const rand = (n: number) =>
      Float32Array.from({ length: n }, () => (seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5);
    const rows: (string | number)[][] = [];
    const result = [];
    let totalDef = 0,
      totalNew = 0;
    for (const sh of cpuMatmulShapes(R, C, V, D)) {
      const a = rand(sh.M * sh.K),
        b = rand(sh.K * sh.N),
        out = new Float32Array(sh.M * sh.N);
      // Enough calls per timing that one lasts a few ms (timer resolution, JIT).
      const calls = Math.max(1, Math.round(2e6 / (sh.M * sh.K * sh.N)));
      const time = (f: typeof matmul) => {
        const t0 = performance.now();
        for (let c = 0; c < calls; c++) f(out, a, b, null, sh);
        return (performance.now() - t0) / calls;
      };
      for (let w = 0; w < opts.warmup; w++) {
        time(matmulDefinition);
        time(matmul);
      }
      const def: number[] = [],
        now: number[] = [];
      for (let r = 0; r < opts.reps; r++) {
        def.push(time(matmulDefinition));
        now.push(time(matmul));
      }
      const md = median(def),
        mn = median(now);
      totalDef += md;
      totalNew += mn;
      const shape = `${sh.M}×${sh.K}·${sh.K}×${sh.N}${sh.transA ? ' (aᵀ)' : ''}${sh.transB ? ' (bᵀ)' : ''}`;
      rows.push([sh.name, shape, sig3(md), sig3(mn), `${(md / mn).toFixed(2)}×`]);
      result.push({ ...sh, definitionMs: md, matmulMs: mn, speedup: md / mn });
      opts.progress(`${sh.name} done`);
    }
    rows.push(['all shapes', '', sig3(totalDef), sig3(totalNew), `${(totalDef / totalNew).toFixed(2)}×`]);
    opts.out(`R ${R} rows, C ${C}, V ${V}, ${D} decoding rows; medians of ${opts.reps} interleaved timings`);
    opts.out(formatTable(['call', 'shape', 'definition ms', 'matmul ms', 'speed-up'], rows));
    return {
      rows: R,
      width: C,
      vocab: V,
      decodingRows: D,
      shapes: result,
      totalDefinitionMs: totalDef,
      totalMatmulMs: totalNew,
    };
  },
};
