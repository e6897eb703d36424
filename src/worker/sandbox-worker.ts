// Custom code in the page (docs/custom-estimators.md, "Where it runs"): each code a run carries
// gets a worker of its own, nested in the training worker, never on the page's thread. It is
// made from a data: URL, so its origin is opaque (no cookies, no IndexedDB, no storage of the
// page), and its shim removes network and storage APIs before any user code runs. A dedicated
// worker cannot interrupt a synchronous loop from inside, so the time limit is enforced from
// here: a call that does not answer in time gets its worker terminated.

import type { CodeKind } from '../config/user-code';
import { SANDBOX_RUNTIME, WORKER_SHIM } from '../rl/custom/runtime';
import { timeoutReply, type Sandbox, type SandboxInput, type SandboxReply } from '../rl/custom/sandbox';

const SCRIPT_URL = `data:text/javascript,${encodeURIComponent(SANDBOX_RUNTIME + WORKER_SHIM)}`;

function failed(message: string): SandboxReply {
  return { ok: false, error: { name: 'Error', message, stack: '' } };
}

export class WorkerSandbox implements Sandbox {
  private worker: Worker | null;
  /** Calls go one at a time: the next waits for the previous answer. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(kind: CodeKind) {
    this.worker = new Worker(SCRIPT_URL, { name: `rlvr-${kind}-code` });
  }

  private request(message: object, timeoutMs: number): Promise<SandboxReply> {
    const next = this.queue.then(
      () =>
        new Promise<SandboxReply>((resolve) => {
          const worker = this.worker;
          if (!worker) return resolve(failed('the sandbox was stopped'));
          const timer = setTimeout(() => {
            this.dispose();
            resolve(timeoutReply(timeoutMs));
          }, timeoutMs);
          worker.onmessage = (e: MessageEvent<SandboxReply>) => {
            clearTimeout(timer);
            resolve(e.data);
          };
          worker.onerror = (e: ErrorEvent) => {
            e.preventDefault();
            clearTimeout(timer);
            resolve(failed(`the sandbox worker failed: ${e.message || 'unknown error'}`));
          };
          worker.postMessage(message);
        }),
    );
    this.queue = next;
    return next;
  }

  compile(js: string, kind: CodeKind, file: string, timeoutMs: number): Promise<SandboxReply> {
    return this.request({ type: 'compile', js, kind, file }, timeoutMs);
  }

  call(input: SandboxInput, timeoutMs: number): Promise<SandboxReply> {
    return this.request({ type: 'call', input }, timeoutMs);
  }

  dispose(): void {
    this.worker?.terminate();
    this.worker = null;
  }
}
