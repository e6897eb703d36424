// A GPU command prints what it has to say and nothing else: the lines the Vulkan loader, Mesa's
// device-select layer and Dawn print while looking for an adapter ("error: XDG_RUNTIME_DIR is
// invalid…", "Warning: Vulkan … required. - While initializing adapter", "at InitializeImpl
// (…PhysicalDeviceVk.cpp…)") read as a crash and must not reach the terminal.

import { describe, expect } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gpuIt } from '../gpu/testing';
import { runCli } from './run-folder-fixtures';
import { tinyInitFlags } from './testTrain';

describe('the terminal of a GPU command', () => {
  gpuIt(
    "holds the adapter line and the output, not the adapter probe's native noise (as in a shell without XDG_RUNTIME_DIR)",
    () => {
      const d = mkdtempSync(join(tmpdir(), 'rlvr-noise-'));
      const model = join(d, 'm.safetensors');
      const env = { ...process.env };
      delete env.XDG_RUNTIME_DIR;
      delete env.VK_ICD_FILENAMES;
      delete env.NODEVICE_SELECT;
      expect(runCli(['init', ...tinyInitFlags(8, 1), '--out', model], 60_000, env).code).toBe(0);
      const r = runCli(['forward', '--checkpoint', model, '--tokens', '1,2,3', '--json'], 120_000, env);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout.trim())).toHaveProperty('loss');
      const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/^\[webgpu\] adapter: /);
    },
    240_000,
  );
});
