// Custom code in Node (rlvr train, rlvr sweep, the tests): a node:vm context of its own, with
// no require, process or file system in it, and a time limit on every evaluation. vm's timeout
// interrupts a synchronous endless loop; `microtaskMode: 'afterEvaluate'` keeps promise jobs
// inside that limit too. (node:vm is a separate context, not a security boundary against
// hostile code: in Node the code is the person's own file. The page runs it in a worker.)
//
// The inputs go in as the host's arrays and the runtime copies them before the code runs; the
// results come back as the context's own objects, which are read here only through the host's
// intrinsics (the typed-array length getter, util.types), so nothing the code redefined runs
// outside the time limit.

import vm from 'node:vm';
import { types } from 'node:util';
import type { CodeKind } from '../../config/custom-code';
import { SANDBOX_RUNTIME } from './runtime';
import { timeoutReply, type InputArray, type OutputSummary, type Sandbox, type SandboxError, type SandboxReply, type SandboxInput } from './sandbox';

const typedLength = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), 'length')!.get!;

/** A copy of one of the context's typed arrays, or null when it is not a genuine one. */
function copyTyped(x: unknown): InputArray | null {
  const make = types.isFloat64Array(x) ? Float64Array : types.isFloat32Array(x) ? Float32Array : types.isInt32Array(x) ? Int32Array : types.isUint8Array(x) ? Uint8Array : null;
  if (!make || types.isProxy(x)) return null;
  const n = typedLength.call(x) as number;
  const out = new make(n);
  const src = x as ArrayLike<number>;
  for (let i = 0; i < n; i++) out[i] = src[i];
  return out;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : -1);

/** The runtime's record (a prototype-less object of the context) as a host reply. */
function toReply(r: Record<string, unknown>): SandboxReply {
  if (r.ok !== true) {
    const e = (r.error ?? {}) as Record<string, unknown>;
    const error: SandboxError = { name: str(e.name) || 'Error', message: str(e.message), stack: str(e.stack) };
    return { ok: false, error };
  }
  const reply: SandboxReply = { ok: true };
  const o = r.output as Record<string, unknown> | undefined;
  if (o) {
    const values = o.values === null ? null : copyTyped(o.values);
    const output: OutputSummary = {
      type: str(o.type), length: num(o.length), values: values instanceof Float64Array ? values : null, bad: num(o.bad), badType: str(o.badType),
    };
    reply.output = output;
  }
  const a = r.after as Record<string, unknown> | undefined;
  if (a) {
    reply.after = {};
    for (const key of Object.keys(a)) {
      const copy = copyTyped(a[key]);
      if (copy) reply.after[key] = copy;
    }
  }
  return reply;
}

function isTimeout(e: unknown): boolean {
  return (e as { code?: string })?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
}

export class NodeSandbox implements Sandbox {
  private readonly context: vm.Context;
  private readonly compileScript = new vm.Script('(function () { var m = globalThis.__rlvrIn; delete globalThis.__rlvrIn; return __rlvr.compile(m.js, m.kind, m.file); })()');
  private readonly callScript = new vm.Script('(function () { var m = globalThis.__rlvrIn; delete globalThis.__rlvrIn; return __rlvr.call(m); })()');
  private stopped = false;

  constructor() {
    this.context = vm.createContext(Object.create(null), { codeGeneration: { strings: true, wasm: false }, microtaskMode: 'afterEvaluate' });
    vm.runInContext(SANDBOX_RUNTIME, this.context, { filename: 'sandbox-runtime.js' });
  }

  private run(script: vm.Script, input: unknown, timeoutMs: number): SandboxReply {
    if (this.stopped) return { ok: false, error: { name: 'Error', message: 'the sandbox was stopped', stack: '' } };
    this.context.__rlvrIn = input;
    try {
      return toReply(script.runInContext(this.context, { timeout: timeoutMs }) as Record<string, unknown>);
    } catch (e) {
      if (isTimeout(e)) {
        this.stopped = true;
        return timeoutReply(timeoutMs);
      }
      throw e;
    } finally {
      delete this.context.__rlvrIn;
    }
  }

  async compile(js: string, kind: CodeKind, file: string, timeoutMs: number): Promise<SandboxReply> {
    return this.run(this.compileScript, { js, kind, file }, timeoutMs);
  }

  async call(input: SandboxInput, timeoutMs: number): Promise<SandboxReply> {
    return this.run(this.callScript, input, timeoutMs);
  }

  dispose(): void {
    this.stopped = true;
  }
}

export const nodeSandbox = (): Sandbox => new NodeSandbox();
