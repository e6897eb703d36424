#!/usr/bin/env node
// `npm test`: install what the tests need, then type-check, lint and format check, unit tests (vitest, GPU tests on
// Dawn), build, and end-to-end tests (Playwright on Debian's Chromium with WebGPU).
//
// Needs from the system: Chromium (CHROMIUM_PATH or /usr/bin/chromium) for the e2e tests and
// the Vulkan loader libvulkan.so.1 for Dawn in Node (SwiftShader, shipped with Debian's
// chromium, is the adapter on machines without a GPU). As root on Debian they are installed
// with apt-get when missing; otherwise this says exactly what to install.
//
// Flags: --no-e2e (skip build + Playwright), --no-unit. Ends with one line
// "tests: N passed, N failed, N skipped" summed over vitest and Playwright.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';

const args = new Set(process.argv.slice(2));
const runUnit = !args.has('--no-unit');
const runE2e = !args.has('--no-e2e');
const started = Date.now();

function sh(cmd, cmdArgs, opts = {}) {
  const t0 = Date.now();
  console.log(`\n▶ ${cmd} ${cmdArgs.join(' ')}`);
  const r = spawnSync(cmd, cmdArgs, { stdio: 'inherit', ...opts });
  console.log(`  (${((Date.now() - t0) / 1000).toFixed(1)} s, exit ${r.status})`);
  return r.status ?? 1;
}

/** Runs a command beside others, its output held and printed as one block when it ends. */
function shBuffered(name, cmd, cmdArgs) {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, cmdArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (d) => chunks.push(d));
    child.stderr.on('data', (d) => chunks.push(d));
    child.on('close', (code) => {
      const status = code ?? 1;
      console.log(`\n▶ ${cmd} ${cmdArgs.join(' ')}`);
      process.stdout.write(Buffer.concat(chunks));
      console.log(`  (${((Date.now() - t0) / 1000).toFixed(1)} s, exit ${status})`);
      resolve({ name, status });
    });
  });
}

function hasVulkanLoader() {
  const r = spawnSync('sh', ['-c', 'ldconfig -p 2>/dev/null | grep -q "libvulkan.so.1 "'], { stdio: 'ignore' });
  return r.status === 0;
}

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function ensureSystemPackages() {
  const missing = [];
  if (!existsSync(chromium)) missing.push('chromium');
  if (!hasVulkanLoader()) missing.push('libvulkan1');
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = existsSync('/usr/bin/apt-get');
  if (isRoot && hasApt) {
    console.log(`Installing Debian packages the tests need: ${missing.join(' ')}`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    if (
      sh('apt-get', ['update', '-qq'], { env }) !== 0 ||
      sh('apt-get', ['install', '-y', '-qq', ...missing], { env }) !== 0
    ) {
      console.error('apt-get failed; install them by hand and run npm test again.');
      process.exit(1);
    }
    return;
  }
  console.error(
    `The tests need: ${missing.join(', ')}.\n` +
      `  chromium   – the browser the e2e tests drive (Debian: apt-get install chromium; elsewhere set CHROMIUM_PATH)\n` +
      `  libvulkan1 – the Vulkan loader Dawn (npm package "webgpu") opens in Node (Debian: apt-get install libvulkan1)\n` +
      `Run as root: apt-get update && apt-get install -y ${missing.join(' ')}`,
  );
  process.exit(1);
}

// The Slurm test (src/cli/slurm.test.ts) runs a private single-node Slurm; it needs root and
// Debian's slurm-wlm + munge, and GNU parallel for the --emit-jobs line. Installed here as root
// when missing (without starting the system's own daemons); if that cannot be, those tests are
// reported skipped with the reason. Once they are here, a skip is a failure (RLVR_REQUIRE_SLURM).
function ensureClusterTools() {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const has = (bin) => spawnSync('sh', ['-c', `command -v ${bin}`], { stdio: 'ignore' }).status === 0;
  const missing = [];
  if (!['slurmctld', 'slurmd', 'sbatch', 'munged'].every(has)) missing.push('slurm-wlm', 'munge');
  if (!has('parallel')) missing.push('parallel');
  if (missing.length && isRoot && existsSync('/usr/bin/apt-get')) {
    console.log(`Installing Debian packages the cluster tests need: ${missing.join(' ')}`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    // policy-rc.d 101: the packages' scripts start no system daemons (the test starts its own).
    const policy = '/usr/sbin/policy-rc.d';
    const ownPolicy = !existsSync(policy);
    if (ownPolicy) writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
    try {
      if (sh('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { env }) !== 0) {
        sh('apt-get', ['update', '-qq'], { env });
        sh('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { env });
      }
    } finally {
      if (ownPolicy) rmSync(policy, { force: true });
    }
  }
  if (isRoot && ['slurmctld', 'slurmd', 'sbatch', 'munged'].every(has)) process.env.RLVR_REQUIRE_SLURM = '1';
}

function ensureNodeModules() {
  if (existsSync('node_modules/.package-lock.json') && existsSync('node_modules/webgpu')) return;
  if (sh('npm', ['ci', '--no-audit', '--no-fund']) !== 0) process.exit(1);
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

ensureSystemPackages();
ensureClusterTools();
ensureNodeModules();
mkdirSync('test-results', { recursive: true });

const tally = { passed: 0, failed: 0, skipped: 0 };
let failedSteps = [];

// The static checks at once (each is one single-threaded process, and this machine has two
// cores): the type check, the linter's rules (eslint.config.js) and Prettier's format
// (.prettierrc.json; `npm run format` mends it). Each one's output is printed when it ends.
const staticChecks = await Promise.all([
  shBuffered('typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']),
  shBuffered('lint', 'npx', ['eslint', '.', '--max-warnings', '0']),
  shBuffered('format', 'npx', ['prettier', '--check', '.', '--log-level', 'warn']),
]);
failedSteps.push(...staticChecks.filter((c) => c.status !== 0).map((c) => c.name));

if (runUnit) {
  const code = sh('npx', [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    '--outputFile.json=test-results/unit.json',
  ]);
  const j = readJson('test-results/unit.json');
  if (j) {
    tally.passed += j.numPassedTests ?? 0;
    tally.failed += j.numFailedTests ?? 0;
    tally.skipped += (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0);
  }
  if (code !== 0) failedSteps.push('unit');
}

if (runE2e) {
  if (sh('npx', ['vite', 'build', '--logLevel', 'warn']) !== 0) failedSteps.push('build');
  else {
    const code = sh('npx', ['playwright', 'test']);
    const j = readJson('test-results/e2e.json');
    if (j?.stats) {
      tally.passed += (j.stats.expected ?? 0) + (j.stats.flaky ?? 0);
      tally.failed += j.stats.unexpected ?? 0;
      tally.skipped += j.stats.skipped ?? 0;
    }
    if (code !== 0) failedSteps.push('e2e');
  }
}

const mins = ((Date.now() - started) / 60000).toFixed(1);
console.log(
  `\nnpm test finished in ${mins} min${failedSteps.length ? `; failed steps: ${failedSteps.join(', ')}` : ''}`,
);
console.log(`tests: ${tally.passed} passed, ${tally.failed} failed, ${tally.skipped} skipped`);
process.exit(failedSteps.length ? 1 : 0);
