// The page's handle on the training worker: typed commands out, typed events in.

import type { Command, Event } from './protocol';

export interface TrainerPort {
  send(cmd: Command): void;
  onEvent(listener: (event: Event) => void): () => void;
  terminate(): void;
}

/** Starts the module worker (src/worker/worker.ts). */
export function startTrainerWorker(): TrainerPort {
  const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'rlvr-trainer' });
  const listeners = new Set<(event: Event) => void>();
  worker.onmessage = (e: MessageEvent<Event>) => {
    for (const l of listeners) l(e.data);
  };
  worker.onerror = (e: ErrorEvent) => {
    const event: Event = {
      type: 'error',
      kind: 'internal',
      message: `the training worker failed: ${e.message || 'unknown error'}`,
    };
    for (const l of listeners) l(event);
  };
  return {
    send(cmd) {
      // Weights travel as a copy: the page keeps its checkpoint for a later resume.
      worker.postMessage(cmd);
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    terminate() {
      worker.terminate();
    },
  };
}
