// Custom code in the page (docs/custom-estimators.md, "Where it runs"): each code a run carries
// gets a worker of its own, nested in the training worker, never on the page's thread. It is
// made from a data: URL, so its origin is opaque (no cookies, no IndexedDB, no storage of the
// page), and its shim removes network and storage APIs before any user code runs. A dedicated
// worker cannot interrupt a synchronous loop from inside, so the time limit is enforced from
// here: a call that does not answer in time gets its worker terminated.

import type { CodeKind } from '../config/user-code';
import { SANDBOX_RUNTIME, WORKER_SHIM } from '../rl/custom/runtime';
import { failedReply as failed, QueuedSandbox, timeoutReply, type SandboxReply } from '../rl/custom/sandbox';

const SCRIPT_URL = `data:text/javascript,${encodeURIComponent(SANDBOX_RUNTIME + WORKER_SHIM)}`;

export class WorkerSandbox extends QueuedSandbox {
  private worker: Worker | null;

  constructor(kind: CodeKind) {
    super();
    this.worker = new Worker(SCRIPT_URL, { name: `rlvr-${kind}-code` });
  }

  protected send(message: Record<string, unknown>, timeoutMs: number): Promise<SandboxReply> {
    return new Promise<SandboxReply>((resolve) => {
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
    });
  }

  dispose(): void {
    this.worker?.terminate();
    this.worker = null;
  }
}
