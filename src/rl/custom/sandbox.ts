// Where custom code runs: a Sandbox is one isolated JavaScript context with a time limit on
// every call (docs/custom-estimators.md, "Where it runs"). The page's training worker gives each
// code a nested worker (src/worker/sandbox-worker.ts), Node a node:vm context (./sandbox-node.ts);
// both run ./runtime.ts inside, answer with the plain records below, and queue their requests
// the same way (QueuedSandbox).

import type { CodeKind } from '../../config/user-code';

/** Typed arrays the batch carries, by their names in the batch. */
export type InputArray = Float64Array | Float32Array | Int32Array | Uint8Array;

/**
 * One call's input, grouped by how the runtime copies it: numbers, typed arrays (copied, then
 * compared after the call), lists of strings and lists of lists (copied and frozen).
 */
export interface SandboxInput {
  scalarKeys: string[];
  scalars: Record<string, number>;
  typedKeys: string[];
  typed: Record<string, InputArray>;
  stringKeys: string[];
  strings: Record<string, string[]>;
  nestedKeys: string[];
  nested: Record<string, string[][]>;
}

export interface SandboxError {
  name: string;
  message: string;
  stack: string;
}

/** What the function returned, as the runtime read it. */
export interface OutputSummary {
  /** 'array', 'typed array', or what it was instead ('undefined', 'an object', …). */
  type: string;
  /** -1 when it was not an array. */
  length: number;
  /** [length] the values (NaN where an entry was not a number), or null. */
  values: Float64Array | null;
  /** The first entry that was not a number (-1: none), and its type. */
  bad: number;
  badType: string;
}

export type SandboxReply =
  | { ok: true; output?: OutputSummary; after?: Record<string, InputArray> }
  | { ok: false; error: SandboxError; timedOut?: boolean };

export interface Sandbox {
  /** Evaluates the code (its top level included) within `timeoutMs`. */
  compile(js: string, kind: CodeKind, file: string, timeoutMs: number): Promise<SandboxReply>;
  /** One call of the compiled function within `timeoutMs`; past it the sandbox is stopped for good. */
  call(input: SandboxInput, timeoutMs: number): Promise<SandboxReply>;
  dispose(): void;
}

/** Makes one sandbox per code a run carries. */
export type SandboxFactory = (kind: CodeKind) => Sandbox;

/** A reply for a call that ran past its time limit. */
export function timeoutReply(ms: number): SandboxReply {
  return {
    ok: false,
    timedOut: true,
    error: { name: 'TimeoutError', message: `did not return within ${ms} ms`, stack: '' },
  };
}

/** A reply for a request the sandbox could not run (stopped, unreachable, crashed). */
export function failedReply(message: string, name = 'Error'): SandboxReply {
  return { ok: false, error: { name, message, stack: '' } };
}

/**
 * What both sandboxes share: compile and call are requests that go one at a time, each sent
 * only after the previous one was answered. A sandbox says how it sends one (`send`).
 */
export abstract class QueuedSandbox implements Sandbox {
  private queue: Promise<unknown> = Promise.resolve();

  /** Sends one request and resolves with its answer, a failure or a timeout; never rejects. */
  protected abstract send(message: Record<string, unknown>, timeoutMs: number): Promise<SandboxReply>;

  abstract dispose(): void;

  private request(message: Record<string, unknown>, timeoutMs: number): Promise<SandboxReply> {
    const next = this.queue.then(() => this.send(message, timeoutMs));
    this.queue = next;
    return next;
  }

  compile(js: string, kind: CodeKind, file: string, timeoutMs: number): Promise<SandboxReply> {
    return this.request({ type: 'compile', js, kind, file }, timeoutMs);
  }

  call(input: SandboxInput, timeoutMs: number): Promise<SandboxReply> {
    return this.request({ type: 'call', input }, timeoutMs);
  }
}
