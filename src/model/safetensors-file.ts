// The safetensors container, independent of what the tensors mean: an 8-byte little-endian
// header length H, H bytes of JSON { "__metadata__": {string: string}, "<name>": {dtype, shape,
// data_offsets: [begin, end]} } (padded with spaces to a multiple of 8), then the data section,
// offsets relative to its start.
//
// Reading checks every entry against the bytes actually present before anything is allocated,
// so a small file that claims a huge tensor costs nothing; every error names the entry.

export class CheckpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CheckpointError';
  }
}

/** What `read` returns; a CheckpointError it throws is prefixed with `where` (the file's name), so the message says which file. */
export function readingFile<T>(where: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof CheckpointError) throw new CheckpointError(`${where}: ${e.message}`);
    throw e;
  }
}

/** The JSON header may not be larger than this (the safetensors format's own limit). */
export const MAX_HEADER_BYTES = 100_000_000;

export interface TensorEntry {
  name: string;
  dtype: string;
  shape: number[];
  /** Byte range in the data section, [begin, end). */
  begin: number;
  end: number;
}

export interface SafetensorsFile {
  metadata: Record<string, string>;
  /** Tensors in header order. */
  tensors: Map<string, TensorEntry>;
  bytes: Uint8Array;
  /** Offset of the data section in `bytes`. */
  dataStart: number;
  dataLength: number;
}

const DTYPE_BYTES: Record<string, number> = {
  F64: 8,
  F32: 4,
  F16: 2,
  BF16: 2,
  I64: 8,
  I32: 4,
  I16: 2,
  I8: 1,
  U8: 1,
  BOOL: 1,
};

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const showJson = (v: unknown): string => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
};

function readEntry(name: string, raw: unknown, dataLength: number): TensorEntry {
  const at = `tensor "${name.length > 80 ? name.slice(0, 77) + '...' : name}"`;
  if (!isRecord(raw))
    throw new CheckpointError(
      `${at}: its header entry must be an object {dtype, shape, data_offsets}, got ${showJson(raw)}`,
    );
  const { dtype, shape, data_offsets: offsets } = raw;
  if (typeof dtype !== 'string' || !(dtype in DTYPE_BYTES)) {
    throw new CheckpointError(
      `${at}: dtype must be one of ${Object.keys(DTYPE_BYTES).join(', ')}, got ${showJson(dtype)}`,
    );
  }
  if (!Array.isArray(shape) || shape.length > 8 || !shape.every((d) => Number.isSafeInteger(d) && d >= 0)) {
    throw new CheckpointError(`${at}: shape must be a list of at most 8 non-negative integers, got ${showJson(shape)}`);
  }
  if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every((o) => Number.isSafeInteger(o))) {
    throw new CheckpointError(`${at}: data_offsets must be [begin, end], two integers, got ${showJson(offsets)}`);
  }
  const [begin, end] = offsets as [number, number];
  // A negative begin would read the header's own bytes as weights.
  if (begin < 0 || end < begin || end > dataLength) {
    throw new CheckpointError(
      `${at}: data_offsets [${begin}, ${end}] must satisfy 0 ≤ begin ≤ end ≤ ${dataLength} (the data section's size)`,
    );
  }
  return { name, dtype, shape: shape as number[], begin, end };
}

/** Parses and checks the header of a safetensors file; reads no tensor data. */
export function readSafetensorsFile(bytes: Uint8Array): SafetensorsFile {
  if (bytes.length < 8) throw new CheckpointError(`file is ${bytes.length} bytes: too short for a safetensors header`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const declared = dv.getBigUint64(0, true);
  if (declared === 0n || declared > BigInt(Math.min(MAX_HEADER_BYTES, bytes.length - 8))) {
    throw new CheckpointError(
      `header length ${declared} does not fit in a ${bytes.length}-byte file (at most ${MAX_HEADER_BYTES} bytes)`,
    );
  }
  const headerLen = Number(declared);
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, 8 + headerLen)));
  } catch (e) {
    throw new CheckpointError(`header is not valid JSON: ${(e as Error).message}`);
  }
  if (!isRecord(header))
    throw new CheckpointError(`header must be a JSON object of tensor name → entry, got ${showJson(header)}`);
  const dataStart = 8 + headerLen;
  const dataLength = bytes.length - dataStart;
  const metadata: Record<string, string> = {};
  const rawMeta = header.__metadata__;
  if (rawMeta !== undefined) {
    if (!isRecord(rawMeta))
      throw new CheckpointError(`__metadata__ must be an object of string → string, got ${showJson(rawMeta)}`);
    for (const [k, v] of Object.entries(rawMeta)) {
      if (typeof v !== 'string') throw new CheckpointError(`__metadata__.${k} must be a string, got ${showJson(v)}`);
      metadata[k] = v;
    }
  }
  const tensors = new Map<string, TensorEntry>();
  for (const [name, raw] of Object.entries(header)) {
    if (name !== '__metadata__') tensors.set(name, readEntry(name, raw, dataLength));
  }
  return { metadata, tensors, bytes, dataStart, dataLength };
}

/**
 * Throws unless the entry's byte span holds exactly its shape's elements. Readers call it after
 * their own shape check, so that a wrong shape is reported as such.
 */
export function checkSpan(entry: TensorEntry): void {
  const elements = entry.shape.reduce((a, b) => a * b, 1);
  const need = elements * DTYPE_BYTES[entry.dtype];
  if (entry.end - entry.begin !== need) {
    throw new CheckpointError(
      `tensor "${entry.name}": data_offsets [${entry.begin}, ${entry.end}] span ${entry.end - entry.begin} bytes, ` +
        `shape [${entry.shape}] of ${entry.dtype} needs ${need}`,
    );
  }
}

/** An F32 tensor's values (a copy, or into `into` at `at`); the entry comes from readSafetensorsFile. */
export function readF32Tensor(file: SafetensorsFile, entry: TensorEntry, into?: Float32Array, at = 0): Float32Array {
  if (entry.dtype !== 'F32') throw new CheckpointError(`tensor "${entry.name}": dtype ${entry.dtype}, expected F32`);
  checkSpan(entry);
  const n = (entry.end - entry.begin) / 4;
  const out = into ?? new Float32Array(n);
  const dv = new DataView(file.bytes.buffer, file.bytes.byteOffset + file.dataStart + entry.begin, n * 4);
  for (let i = 0; i < n; i++) out[at + i] = dv.getFloat32(i * 4, true);
  return out;
}

/** Index of the first NaN or ±Inf in values[from, to), or −1. */
export function firstNonFinite(values: ArrayLike<number>, from = 0, to = values.length): number {
  for (let i = from; i < to; i++) if (!Number.isFinite(values[i])) return i;
  return -1;
}

export interface TensorToWrite {
  name: string;
  shape: number[];
  /** F32 values, length = product of shape. */
  values: ArrayLike<number>;
}

/** A safetensors file of F32 tensors, in the given order, contiguous (what strict readers require). */
export function writeSafetensorsFile(tensors: readonly TensorToWrite[], metadata: Record<string, string>): Uint8Array {
  const header: Record<string, unknown> = { __metadata__: metadata };
  let offset = 0;
  for (const t of tensors) {
    const n = t.shape.reduce((a, b) => a * b, 1);
    if (n !== t.values.length)
      throw new CheckpointError(`tensor "${t.name}": shape [${t.shape}] needs ${n} values, got ${t.values.length}`);
    header[t.name] = { dtype: 'F32', shape: t.shape, data_offsets: [offset, offset + n * 4] };
    offset += n * 4;
  }
  let json = JSON.stringify(header);
  const enc = new TextEncoder();
  const pad = (8 - (enc.encode(json).length % 8)) % 8;
  json += ' '.repeat(pad);
  const headerBytes = enc.encode(json);
  const out = new Uint8Array(8 + headerBytes.length + offset);
  const dv = new DataView(out.buffer);
  dv.setBigUint64(0, BigInt(headerBytes.length), true);
  out.set(headerBytes, 8);
  let p = 8 + headerBytes.length;
  for (const t of tensors) {
    for (let i = 0; i < t.values.length; i++, p += 4) dv.setFloat32(p, t.values[i], true);
  }
  return out;
}
