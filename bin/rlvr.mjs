#!/usr/bin/env node
// `npx rlvr …` from a clone (package.json "bin"): runs src/cli/main.ts through tsx's loader in
// a child node, with the arguments, stdio and exit status passed through, and a Ctrl-C or
// SIGTERM relayed once (train stops after its step and keeps its checkpoint).

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const main = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
// tsx from this clone's node_modules, whatever the current folder.
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const child = spawn(process.execPath, ['--import', tsx, main, ...process.argv.slice(2)], { stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    // A terminal's Ctrl-C reaches the child too (same process group): relay only what came to us alone.
    if (sig !== 'SIGINT' || !process.stdin.isTTY) child.kill(sig);
  });
}
child.on('error', (e) => {
  console.error(`rlvr: cannot start node: ${e.message}`);
  process.exit(127);
});
child.on('exit', (code, signal) =>
  process.exit(code ?? (signal ? 128 + ({ SIGINT: 2, SIGTERM: 15, SIGHUP: 1, SIGKILL: 9 }[signal] ?? 1) : 1)),
);
