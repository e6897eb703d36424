// Files a headless run writes, written so that nothing is lost: the output folder is checked
// (created, writable) before the first step; checkpoints are written to a temporary file and
// renamed over the old one, so a full disk or a crash leaves the last good checkpoint whole;
// a metrics line that cannot be appended is reported, and the run goes on.

import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeSync,
  appendFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CliError } from '../core/flags';
import { shortText } from '../core/quote';

const reason = (e: unknown): string => {
  const err = e as NodeJS.ErrnoException;
  return err.code ? `${err.code}: ${err.message.replace(/^[A-Z]+: /, '')}` : String((e as Error).message ?? e);
};

function statOrNull(path: string) {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

/** A path as an error message shows it: whole up to 200 characters (a path past PATH_MAX is a screenful). */
const showPath = (p: string): string => shortText(p, 200);

/**
 * Makes sure `dir` is a folder this process can write files into, creating it (and its
 * parents) if needed; `names` are files it will write there, which must not be folders.
 * Throws a CliError naming `flag` and the reason, and then leaves nothing behind: the folders
 * it made are removed again. (Node's recursive mkdir loops forever on some paths, /proc/x for
 * one: the folders are made one at a time.)
 */
export function prepareOutDir(dir: string, flag: string, names: readonly string[] = []): void {
  const abs = resolve(dir);
  const missing: string[] = [];
  let at = abs;
  for (;;) {
    const st = statOrNull(at);
    if (st) {
      if (!st.isDirectory()) {
        throw new CliError(`${flag} ${showPath(dir)}: ${at === abs ? 'is' : `${showPath(at)} is`} not a folder`);
      }
      break;
    }
    const parent = dirname(at);
    if (parent === at) break;
    missing.unshift(at);
    at = parent;
  }
  const made: string[] = [];
  const fail = (message: string): never => {
    for (const d of made.reverse()) {
      try {
        rmdirSync(d);
      } catch {
        // not empty or gone: leave it
      }
    }
    throw new CliError(message);
  };
  for (const d of missing) {
    try {
      mkdirSync(d);
      made.push(d);
    } catch (e) {
      fail(`${flag} ${showPath(dir)}: cannot create the folder ${showPath(d)} (${shortText(reason(e), 300)})`);
    }
  }
  for (const name of names) {
    const st = statOrNull(join(abs, name));
    if (st?.isDirectory())
      fail(`${flag} ${showPath(dir)}: ${name} there is a folder; the run writes a file of that name`);
  }
  // Write access, tried the way checkpoints are written (a file, then a rename).
  const probe = join(abs, `.rlvr-write-test-${process.pid}`);
  try {
    writeFileAtomic(probe, new Uint8Array([1]));
    unlinkSync(probe);
  } catch (e) {
    fail(`${flag} ${showPath(dir)}: cannot write there (${shortText(reason(e), 300)})`);
  }
}

/** The temporary file `path` is written through: hidden, in the same folder (so the rename is atomic), this process's. */
export function tempPathOf(path: string): string {
  return join(dirname(path), `.${path.split(/[\\/]/).pop()}.tmp-${process.pid}`);
}

/**
 * Writes `data` to the temporary file of `path`, flushed to disk; returns its path. On failure
 * the temporary file is removed and the error thrown.
 */
export function writeTempFile(path: string, data: Uint8Array | string): string {
  const tmp = tempPathOf(path);
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  let fd: number | null = null;
  try {
    fd = openSync(tmp, 'w');
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    return tmp;
  } catch (e) {
    if (fd !== null) {
      try {
        closeSync(fd);
      } catch {
        // already failing
      }
    }
    removeQuietly(tmp);
    throw e;
  }
}

/** Removes a file if it is there; never throws. */
export function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // nothing to remove
  }
}

/**
 * Writes `data` to `path` through a temporary file in the same folder, flushed to disk and then
 * renamed over `path`: the old file stays whole until the new one is complete.
 */
export function writeFileAtomic(path: string, data: Uint8Array | string): void {
  const tmp = writeTempFile(path, data);
  try {
    renameSync(tmp, path);
  } catch (e) {
    removeQuietly(tmp);
    throw e;
  }
}

/** Appends lines to a log file; a failure is reported once (with the reason), counted, and does not stop the run. */
export class LineLog {
  failures = 0;

  constructor(
    readonly path: string,
    private readonly warn: (message: string) => void,
  ) {}

  append(line: string, label: string | number): void {
    try {
      appendFileSync(this.path, line + '\n');
    } catch (e) {
      if (this.failures++ === 0) {
        this.warn(
          `warning: cannot append to ${this.path} (${reason(e)}) at ${typeof label === 'number' ? `step ${label}` : label}; ` +
            'the run goes on and still writes its checkpoint; later lines are tried again',
        );
      }
    }
  }
}

export { reason as fileErrorReason };
