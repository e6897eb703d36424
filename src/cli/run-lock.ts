// One `rlvr train` at a time per run folder. Two runs writing one folder (the same job started
// twice, a sweep run again while an earlier one's runs still train) interleave their lines in
// metrics.jsonl and can leave weights of one beside the state of the other. A run takes
// `.rlvr-train.lock` (its pid) before it writes anything, and a second one is refused, naming
// the first; a lock left by a process that is gone (killed outright) is taken over, with a note.

import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliError } from '../core/flags';
import { fileErrorReason } from './files';

export const LOCK_FILE = '.rlvr-train.lock';

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

/** Takes `dir`'s lock for this process; returns the function that gives it back (also run at exit). */
export function lockRunFolder(dir: string, note: (s: string) => void): () => void {
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(path, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw new CliError(`--out ${dir}: cannot take the folder's lock ${LOCK_FILE} (${fileErrorReason(e)})`);
      let holder = NaN;
      try {
        holder = Number(readFileSync(path, 'utf8').trim());
      } catch {
        // unreadable: treated as stale
      }
      if (alive(holder)) throw new CliError(`--out ${dir}: another rlvr train (process ${holder}) is writing there; wait for it to end, or give another folder`);
      note(`note: --out ${dir}: took over the lock of process ${Number.isNaN(holder) ? '?' : holder}, which is gone`);
      try {
        unlinkSync(path);
      } catch {
        // taken over by someone else meanwhile: the next attempt says so
      }
    }
  }
  const release = () => {
    process.off('exit', release);
    try {
      if (readFileSync(path, 'utf8').trim() === String(process.pid)) unlinkSync(path);
    } catch {
      // already gone
    }
  };
  process.on('exit', release);
  return release;
}
