// Printing from the CLI without losing output: lines go through writers that survive a closed
// reader (EPIPE: `rlvr train --json | head -1`), and the process exits only once what it
// wrote has reached the pipe. process.stdout is asynchronous on pipes: exiting right after a
// large write cuts the output at the pipe's buffer (64 KB on Linux).

import type { Writable } from 'node:stream';

export interface LineWriter {
  /** Writes one line; a no-op once the reader has gone away. */
  (line: string): void;
  /** True once the reader closed the stream (EPIPE). */
  readonly closed: boolean;
}

/**
 * A line writer on `stream`. A closed reader (EPIPE) is noted once through `onClosed` and
 * further lines are dropped, so a long run is not killed by `| head`. Other stream errors
 * are reported the same way: printing must never cost the work.
 */
export function lineWriter(stream: Writable, onClosed?: (why: string) => void): LineWriter {
  let closed = false;
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (closed) return;
    closed = true;
    onClosed?.(e.code === 'EPIPE' ? 'EPIPE: the reader went away' : `${e.code ?? 'error'}: ${e.message}`);
  });
  const write = ((line: string) => {
    if (closed || stream.destroyed) return;
    stream.write(line + '\n');
  }) as LineWriter;
  Object.defineProperty(write, 'closed', { get: () => closed });
  return write;
}

/** Resolves once everything written to `stream` so far has been handed to the OS (or the stream failed). */
export function drained(stream: Writable): Promise<void> {
  if (stream.destroyed || stream.writableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    // Writes complete in order: the callback of an empty write runs after every earlier one.
    try {
      stream.write('', () => resolve());
    } catch {
      resolve();
    }
  });
}

/** Exits with `code` after stdout and stderr have drained. */
export async function exitAfterDrain(code: number): Promise<never> {
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  process.exit(code);
}
