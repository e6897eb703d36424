// Custom code in Node (rlvr train, rlvr eval, rlvr sweep's runs, the tests): each code a run
// carries gets one process of its own for the whole run (./sandbox-child.ts), started under
// Node's permission model (no file system, no child processes, no workers), with a heap limit,
// an empty environment and no stdin or stdout. Calls and replies cross as structured clones
// (typed arrays, numbers, strings): no object of either side reaches the other, so nothing the
// code defines (a getter, a setter, a finalizer) ever runs in this process. Every call has a
// hard time limit: a reply that is late (an endless loop, a finalizer that never returns, a
// promise loop) gets the process killed, and the sandbox is stopped for good. Whatever else goes
// wrong there (an unhandled rejection, a crash, running out of memory) is a named failure of
// the next call; the trainer turns each into a pause at the last good step (a custom-code fault).

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CHILD_PROGRAM } from './sandbox-child';
import {
  failedReply as failed,
  QueuedSandbox,
  timeoutReply,
  type InputArray,
  type OutputSummary,
  type Sandbox,
  type SandboxError,
  type SandboxReply,
} from './sandbox';

/** The sandbox process's heap limit (MiB): an estimator needs a few; a runaway allocation ends there. */
export const SANDBOX_HEAP_MIB = 256;

/** The sandbox process's address space (KiB, POSIX only): its heap, Node itself, and typed arrays up to about 1.5 GiB. */
export const SANDBOX_ADDRESS_KIB = 2 * 1024 * 1024;

/** The flag that turns the permission model on in this Node (`--permission` from Node 22, `--experimental-permission` in 20 and 21), or null. */
function permissionFlag(): string | null {
  const flags = process.allowedNodeEnvironmentFlags;
  if (flags.has('--permission')) return '--permission';
  if (flags.has('--experimental-permission')) return '--experimental-permission';
  return null;
}

/** Sandbox processes still running, killed when this process exits however it exits. */
const live = new Set<ChildProcess>();
let exitHookInstalled = false;
function track(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const c of live) c.kill('SIGKILL');
    });
  }
}

/** Kills the process of a sandbox that was dropped without dispose(). */
const reaper = new FinalizationRegistry<ChildProcess>((child) => {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : -1);
const isInputArray = (v: unknown): v is InputArray =>
  v instanceof Float64Array || v instanceof Float32Array || v instanceof Int32Array || v instanceof Uint8Array;

/**
 * A reply as it came over the channel, checked field by field (the process runs code that is
 * not ours: a reply it forged is still only data, and only data of the right shapes passes).
 */
function checkReply(r: unknown): SandboxReply {
  if (r === null || typeof r !== 'object') return failed('the sandbox sent a reply that is not one');
  const m = r as Record<string, unknown>;
  if (m.ok !== true) {
    const e = (m.error ?? {}) as Record<string, unknown>;
    const error: SandboxError = { name: str(e.name) || 'Error', message: str(e.message), stack: str(e.stack) };
    return { ok: false, error };
  }
  const reply: SandboxReply = { ok: true };
  const o = m.output as Record<string, unknown> | undefined;
  if (o !== null && typeof o === 'object') {
    const output: OutputSummary = {
      type: str(o.type),
      length: num(o.length),
      values: o.values instanceof Float64Array ? o.values : null,
      bad: num(o.bad),
      badType: str(o.badType),
    };
    reply.output = output;
  }
  const a = m.after as Record<string, unknown> | undefined;
  if (a !== null && typeof a === 'object') {
    reply.after = {};
    for (const key of Object.keys(a)) if (isInputArray(a[key])) reply.after[key] = a[key] as InputArray;
  }
  return reply;
}

interface Pending {
  id: number;
  resolve: (r: SandboxReply) => void;
  timer: ReturnType<typeof setTimeout>;
  timeoutMs: number;
}

export class ProcessSandbox extends QueuedSandbox {
  private child: ChildProcess | null;
  private nextId = 1;
  private pending: Pending | null = null;
  /** Why the sandbox cannot take calls any more (null: it can). */
  private broken: SandboxReply | null = null;
  /** The last of what the process wrote to stderr (V8's out-of-memory report, say). */
  private readonly stderrTail: () => string;

  constructor() {
    super();
    const permission = permissionFlag();
    const args = [
      ...(permission ? [permission] : []),
      '--no-warnings',
      `--max-old-space-size=${SANDBOX_HEAP_MIB}`,
      '-e',
      CHILD_PROGRAM,
    ];
    // Typed arrays live outside V8's heap: the address-space limit (POSIX, through the shell's
    // ulimit) is what stops a hoard of them before it takes the machine's memory.
    const limited = process.platform !== 'win32' && existsSync('/bin/sh');
    const [file, argv] = limited
      ? ['/bin/sh', ['-c', `ulimit -v ${SANDBOX_ADDRESS_KIB} 2>/dev/null; exec "$0" "$@"`, process.execPath, ...args]]
      : [process.execPath, args];
    const child = spawn(file, argv, {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
      env: {},
      windowsHide: true,
    });
    this.child = child;
    track(child);
    child.stderr?.setEncoding('utf8');
    let tail = '';
    child.stderr?.on('data', (s: string) => {
      tail = (tail + s).slice(-4000);
    });
    this.stderrTail = () => tail;
    // The process's listeners hold this sandbox weakly: one dropped without dispose() is
    // collected, and its process killed (reaper).
    const self = new WeakRef(this);
    child.on('message', (m: unknown) => self.deref()?.onMessage(m));
    child.on('error', (e) => self.deref()?.fail(failed(`the sandbox process could not run: ${e.message}`)));
    child.on('exit', (code, signal) => {
      const me = self.deref();
      me?.fail(failed(me.exitReason(code, signal)));
    });
    reaper.register(this, child, this);
    // An idle sandbox does not keep the command alive (a pending call's timer does).
    child.unref();
    (child.channel as { unref?: () => void } | undefined)?.unref?.();
    (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
  }

  private exitReason(code: number | null, signal: NodeJS.Signals | null): string {
    if (/heap out of memory|Allocation failed|out of memory/i.test(this.stderrTail()))
      return `the sandbox ran out of memory (its heap is limited to ${SANDBOX_HEAP_MIB} MiB)`;
    if (/Maximum call stack/i.test(this.stderrTail())) return 'the sandbox process ended: its call stack overflowed';
    return `the sandbox process ended (${signal ? `signal ${signal}` : `exit code ${code}`})`;
  }

  private onMessage(m: unknown): void {
    if (m === null || typeof m !== 'object') return;
    const msg = m as Record<string, unknown>;
    if (msg.type === 'fault') {
      const e = (msg.error ?? {}) as Record<string, unknown>;
      const what =
        msg.what === 'uncaught exception'
          ? 'an exception thrown outside the call (a finalizer or a timer?)'
          : 'a promise rejected with no handler';
      // The call after the one that left it fails (also when it is already on its way).
      this.fail({
        ok: false,
        error: {
          name: str(e.name) || 'Error',
          message: `${what}: ${str(e.message) || str(e.name)}; the code must finish its work before it returns`,
          stack: str(e.stack),
        },
      });
      return;
    }
    const p = this.pending;
    if (!p || msg.id !== p.id) return;
    this.settle(checkReply(msg.reply));
  }

  private settle(reply: SandboxReply): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    clearTimeout(p.timer);
    p.resolve(reply);
  }

  /** The sandbox is stopped for good: the pending call (if any) and every later one get `reply`. */
  private fail(reply: SandboxReply): void {
    this.broken ??= reply;
    this.kill();
    this.settle(this.broken);
  }

  private kill(): void {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    this.child = null;
  }

  protected send(message: Record<string, unknown>, timeoutMs: number): Promise<SandboxReply> {
    return new Promise<SandboxReply>((resolve) => {
      if (this.broken) return resolve(this.broken);
      const child = this.child;
      if (!child) return resolve(failed('the sandbox was stopped'));
      const id = this.nextId++;
      const timer = setTimeout(() => {
        this.broken ??= timeoutReply(timeoutMs);
        this.kill();
        this.settle(timeoutReply(timeoutMs));
      }, timeoutMs);
      this.pending = { id, resolve, timer, timeoutMs };
      try {
        child.send({ ...message, id }, (e) => {
          if (e) this.fail(failed(`the sandbox process cannot be reached: ${e.message}`));
        });
      } catch (e) {
        this.fail(failed(`the sandbox process cannot be reached: ${(e as Error).message}`));
      }
    });
  }

  dispose(): void {
    reaper.unregister(this);
    this.broken ??= failed('the sandbox was stopped');
    this.kill();
    this.settle(this.broken);
  }
}

export const nodeSandbox = (): Sandbox => new ProcessSandbox();
