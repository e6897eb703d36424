// One `rlvr train` at a time per run folder. Two runs writing one folder (the same job started
// twice, a sweep run again while an earlier one's runs still train) interleave their lines in
// metrics.jsonl and can leave weights of one beside the state of the other. A run takes
// `.rlvr-train.lock` (its pid) before it writes anything, and a second one is refused, naming
// the first; a lock left by a process that is gone (killed outright) is taken over, with a note.
//
// Taking the lock is one exclusive create (O_EXCL): of two runs, one wins. Taking over a stale
// lock is where two runs can meet (each reads the dead pid, each removes "the" lock, the second
// removes the first's fresh one): so only the run that wins an exclusive claim on that very lock
// file (named by the dead pid and the file's inode) may remove it, and it removes it only if the
// lock is still that file. Everyone then competes again through the exclusive create.

import { closeSync, fstatSync, openSync, readFileSync, readSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliError } from '../core/flags';
import { fileErrorReason } from './run-files';

export const LOCK_FILE = '.rlvr-train.lock';

/** Rounds of create / take over before giving up (a takeover that keeps failing: a claim file left by a crash). */
const ATTEMPTS = 8;

/** Blocks this thread for `ms` (the lock is taken before anything async starts). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Whether process `pid` is running (on this machine). */
function alive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The lock file as it is now: its holder's pid (NaN: unreadable) and its inode; null when there is none. */
function readLock(path: string): { holder: number; ino: number } | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const buf = Buffer.alloc(64);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const text = buf.subarray(0, n).toString('utf8').trim();
    return { holder: /^\d+$/.test(text) ? Number(text) : NaN, ino: fstatSync(fd).ino };
  } finally {
    closeSync(fd);
  }
}

export interface LockOptions {
  /** The pid written into the lock (default this process's; tests race two takers in one process). */
  pid?: number;
}

/** Takes `dir`'s lock for this process; returns the function that gives it back (also run at exit). */
export function lockRunFolder(dir: string, note: (s: string) => void, options: LockOptions = {}): () => void {
  const pid = options.pid ?? process.pid;
  const path = join(dir, LOCK_FILE);
  const cannot = (why: string) => new CliError(`--out ${dir}: cannot take the folder's lock ${LOCK_FILE} (${why})`);
  let taken = false;
  for (let attempt = 0; attempt < ATTEMPTS && !taken; attempt++) {
    try {
      writeFileSync(path, `${pid}\n`, { flag: 'wx' });
      taken = true;
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw cannot(fileErrorReason(e));
    }
    const lock = readLock(path);
    if (!lock) continue; // given back meanwhile: try again
    if (alive(lock.holder))
      throw new CliError(
        `--out ${dir}: another rlvr train (process ${lock.holder}) is writing there; wait for it to end, or give another folder`,
      );
    // Stale: claim this very lock file; only the claim's winner removes it.
    const claim = `${path}.takeover-${Number.isNaN(lock.holder) ? 'unreadable' : lock.holder}-${lock.ino}`;
    try {
      writeFileSync(claim, `${pid}\n`, { flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') {
        // another run is taking it over: let it finish, its lock then decides
        pause(25);
        continue;
      }
      throw cannot(fileErrorReason(e));
    }
    try {
      const now = readLock(path);
      if (
        now &&
        now.ino === lock.ino &&
        (now.holder === lock.holder || (Number.isNaN(now.holder) && Number.isNaN(lock.holder)))
      ) {
        unlinkSync(path);
        note(
          `note: --out ${dir}: took over the lock of process ${Number.isNaN(lock.holder) ? '?' : lock.holder}, which is gone`,
        );
      }
    } finally {
      try {
        unlinkSync(claim);
      } catch {
        // already gone
      }
    }
  }
  if (!taken)
    throw cannot(
      `a takeover of a stale lock did not finish; if no rlvr train runs there, remove ${LOCK_FILE} and any ${LOCK_FILE}.takeover-* file in the folder`,
    );
  const release = () => {
    process.off('exit', release);
    try {
      if (readFileSync(path, 'utf8').trim() === String(pid)) unlinkSync(path);
    } catch {
      // already gone
    }
  };
  process.on('exit', release);
  return release;
}
