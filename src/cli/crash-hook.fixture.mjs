// Test fixture (node --import): watches the file operations a command makes in one folder, to
// test what a crash at any of them leaves on disk. Loaded only by src/cli/checkpoint-crash.test.ts.
//
//   RLVR_FS_WATCH=DIR          the folder whose files are watched
//   RLVR_FS_SNAPSHOT=SNAPDIR   before every operation on a file in DIR (open for writing, write,
//                              fsync, close, rename, unlink), copy DIR's files to SNAPDIR/<n>/ and
//                              append "<n> <op> <file>" to SNAPDIR/ops.txt: what a process killed
//                              right then leaves behind. A write is also cut in two, with a copy
//                              between the halves (a kill in the middle of a write).
//   RLVR_FS_KILL_AT=N          SIGKILL this process right before operation N (numbered as above)

import fs from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { syncBuiltinESMExports } from 'node:module';

const watched = process.env.RLVR_FS_WATCH ? resolve(process.env.RLVR_FS_WATCH) : null;
const snapshots = process.env.RLVR_FS_SNAPSHOT ?? null;
const killAt = process.env.RLVR_FS_KILL_AT === undefined ? null : Number(process.env.RLVR_FS_KILL_AT);

const real = {
  openSync: fs.openSync,
  writeSync: fs.writeSync,
  fsyncSync: fs.fsyncSync,
  closeSync: fs.closeSync,
  renameSync: fs.renameSync,
  unlinkSync: fs.unlinkSync,
  copyFileSync: fs.copyFileSync,
  mkdirSync: fs.mkdirSync,
  readdirSync: fs.readdirSync,
  statSync: fs.statSync,
  appendFileSync: fs.appendFileSync,
};
const fds = new Map();
let n = 0;

const inWatched = (p) => watched !== null && typeof p === 'string' && resolve(p).startsWith(watched + '/');

function before(op, file) {
  n++;
  if (killAt !== null && n === killAt) process.kill(process.pid, 'SIGKILL');
  if (snapshots === null) return;
  const to = join(snapshots, String(n));
  real.mkdirSync(to, { recursive: true });
  for (const name of real.readdirSync(watched)) {
    const from = join(watched, name);
    if (real.statSync(from).isFile()) real.copyFileSync(from, join(to, name));
  }
  real.appendFileSync(join(snapshots, 'ops.txt'), `${n} ${op} ${basename(file)}\n`);
}

if (watched !== null) {
  fs.openSync = (path, flags, ...rest) => {
    const writing = typeof flags === 'string' && /[wa+]/.test(flags);
    if (writing && inWatched(path)) before('open', path);
    const fd = real.openSync(path, flags, ...rest);
    if (writing && inWatched(path)) fds.set(fd, path);
    return fd;
  };
  fs.writeSync = (fd, buffer, offset, length, ...rest) => {
    const path = fds.get(fd);
    if (path === undefined || typeof buffer === 'string' || !(length > 1)) {
      if (path !== undefined) before('write', path);
      return real.writeSync(fd, buffer, offset, length, ...rest);
    }
    before('write', path);
    const half = Math.floor(length / 2);
    const first = real.writeSync(fd, buffer, offset, half);
    before('write (second half)', path);
    return first + real.writeSync(fd, buffer, offset + first, length - first);
  };
  fs.fsyncSync = (fd) => {
    if (fds.has(fd)) before('fsync', fds.get(fd));
    return real.fsyncSync(fd);
  };
  fs.closeSync = (fd) => {
    if (fds.has(fd)) before('close', fds.get(fd));
    fds.delete(fd);
    return real.closeSync(fd);
  };
  fs.renameSync = (from, to) => {
    if (inWatched(to)) before(`rename ${basename(from)} →`, to);
    return real.renameSync(from, to);
  };
  fs.unlinkSync = (path) => {
    if (inWatched(path)) before('unlink', path);
    return real.unlinkSync(path);
  };
  syncBuiltinESMExports();
}
