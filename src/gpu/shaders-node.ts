// Node: register every shaders/*.wgsl from disk (the same files Vite bundles for the browser).
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { registerShaderSources, hasShaderSources } from './shaders';

export const SHADER_DIR = fileURLToPath(new URL('../../shaders/', import.meta.url));

export function registerNodeShaders(): void {
  if (hasShaderSources()) return;
  const files: Record<string, string> = {};
  for (const f of readdirSync(SHADER_DIR)) {
    if (f.endsWith('.wgsl')) files[f] = readFileSync(join(SHADER_DIR, f), 'utf8');
  }
  registerShaderSources(files);
}
