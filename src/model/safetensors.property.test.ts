// The checkpoint reader fed garbage: random bytes, random headers, and valid files with their
// header or bytes damaged. It returns a checkpoint or throws a CheckpointError naming what is
// wrong; nothing else escapes, and it never allocates more than the input can back.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildLayout } from './layout';
import { initParams } from './init';
import { readSafetensors, writeSafetensors, CheckpointError } from './safetensors';

const layout = buildLayout({ vocabSize: 6, nPositions: 5, nEmbd: 8, nLayer: 1, nHead: 2 });
const vocab = ['<pad>', '<bos>', '<sep>', '<eos>', 'a', 'b'];
const valid = writeSafetensors(layout, initParams(layout, 1), vocab, { seed: 1 });
const validHeader: Record<string, unknown> = JSON.parse(
  new TextDecoder().decode(valid.subarray(8, 8 + Number(new DataView(valid.buffer).getBigUint64(0, true)))),
);

function withHeader(header: unknown, data: Uint8Array | number = 0, declared?: bigint): Uint8Array {
  const hb = new TextEncoder().encode(JSON.stringify(header) ?? 'null');
  const body = typeof data === 'number' ? new Uint8Array(data) : data;
  const out = new Uint8Array(8 + hb.length + body.length);
  new DataView(out.buffer).setBigUint64(0, declared ?? BigInt(hb.length), true);
  out.set(hb, 8);
  out.set(body, 8 + hb.length);
  return out;
}

const dataOf = valid.subarray(valid.length - layout.slots.reduce((a, s) => a + s.size * 4, 0));

/** Runs the reader and checks the contract; returns the error message or null. */
function read(bytes: Uint8Array): string | null {
  const before = process.memoryUsage().arrayBuffers;
  try {
    const ck = readSafetensors(bytes);
    // Alignment padding aside (at most 64 floats per tensor), the weights are the file's bytes.
    expect(ck.params.byteLength).toBeLessThanOrEqual(bytes.length + ck.layout.slots.length * 256);
    expect(ck.params.every(Number.isFinite)).toBe(true);
    return null;
  } catch (e) {
    if (!(e instanceof CheckpointError))
      throw new Error(`not a CheckpointError: ${(e as Error)?.name}: ${(e as Error)?.message}`, { cause: e });
    expect(e.message.length).toBeGreaterThan(0);
    return e.message;
  } finally {
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * bytes.length + (1 << 20));
  }
}

const json = fc.jsonValue({ maxDepth: 3 });
const hugeInts = fc.oneof(
  fc.integer(),
  fc.constantFrom(-1, -64, 2 ** 31, 2 ** 53, Number.MAX_SAFE_INTEGER, 1e300, -0, 0.5),
);

describe('safetensors reader, fed garbage', () => {
  it('random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (b) => void read(b)),
      { numRuns: 300 },
    );
  });

  it('a declared header length that does not match the bytes', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        (declared) => void read(withHeader(validHeader, dataOf, declared)),
      ),
      { numRuns: 200 },
    );
  });

  it('random JSON as the header, and random entries in a valid header', () => {
    fc.assert(
      fc.property(json, fc.nat(300), (h, n) => void read(withHeader(h, n))),
      { numRuns: 300 },
    );
    const names = fc.constantFrom(...Object.keys(validHeader), 'x', '__proto__', 'constructor');
    fc.assert(
      fc.property(names, json, (name, value) => {
        void read(withHeader({ ...validHeader, [name]: value }, dataOf));
      }),
      { numRuns: 300 },
    );
  });

  it('entries whose shapes and offsets claim more than the file holds', () => {
    const tensor = fc.constantFrom(...layout.slots.map((s) => s.name));
    fc.assert(
      fc.property(
        tensor,
        fc.array(hugeInts, { maxLength: 4 }),
        fc.tuple(hugeInts, hugeInts),
        fc.constantFrom('F32', 'F16', 'I64', 'F64', 'X'),
        (name, shape, offsets, dtype) => {
          void read(withHeader({ ...validHeader, [name]: { dtype, shape, data_offsets: offsets } }, dataOf));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('a config in the metadata claiming any model size', () => {
    fc.assert(
      fc.property(
        fc.record({
          vocab_size: hugeInts,
          n_positions: hugeInts,
          n_embd: hugeInts,
          n_layer: hugeInts,
          n_head: hugeInts,
        }),
        (cfg) => {
          const meta = { ...(validHeader.__metadata__ as object), config: JSON.stringify(cfg) };
          void read(withHeader({ ...validHeader, __metadata__: meta }, dataOf));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a well-formed config of any size within the per-field limits (up to 13 billion parameters) and no tensors for it', () => {
    const cfg = fc
      .tuple(
        fc.constantFrom(1, 2, 4, 8),
        fc.integer({ min: 1, max: 128 }),
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 2, max: 65536 }),
        fc.integer({ min: 2, max: 4096 }),
      )
      .map(([n_head, m, n_layer, vocab_size, n_positions]) => ({
        n_head,
        n_embd: n_head * 4 * m,
        n_layer,
        vocab_size,
        n_positions,
      }));
    fc.assert(
      fc.property(cfg, (c) => {
        const meta = {
          config: JSON.stringify(c),
          vocab: JSON.stringify(Array.from({ length: c.vocab_size }, (_, i) => `t${i}`)),
        };
        void read(withHeader({ __metadata__: meta }, 64));
      }),
      { numRuns: 60 },
    );
  });

  it('a valid file with bytes flipped or cut', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(valid.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }),
        fc.nat(valid.length),
        (flips, cut) => {
          const b = valid.slice(0, Math.max(cut, 0));
          for (const [i, v] of flips) if (i < b.length) b[i] = v;
          void read(b);
        },
      ),
      { numRuns: 400 },
    );
  });
});
