// WGSL sources, one registry for browser and Node (WGSL lives in .wgsl files: docs/architecture.md, "Conventions").
//
// The browser build registers `shaders/*.wgsl` through Vite's `?raw` import (shaders-vite.ts);
// Node reads the same files from disk (shaders-node.ts). A shader may pull in a shared
// library file with a line `//#include "random.wgsl"`; specialisation is done with WGSL
// `override` constants, never by editing the text.

const sources = new Map<string, string>();

/** Register raw sources keyed by file name (e.g. "add.wgsl"). */
export function registerShaderSources(files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) sources.set(baseName(name), text);
}

export function hasShaderSources(): boolean {
  return sources.size > 0;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

const INCLUDE = /^\s*\/\/#include\s+"([^"]+)"\s*$/gm;

/** The full text of a kernel with its includes resolved (each included once). */
export function shaderSource(name: string): string {
  const file = name.endsWith('.wgsl') ? name : `${name}.wgsl`;
  const seen = new Set<string>();
  const resolve = (f: string): string => {
    const text = sources.get(f);
    if (text === undefined) {
      throw new Error(
        `WGSL file "${f}" is not registered (${sources.size} known). ` +
          'Node code must open its device through openNodeDevice(); the browser through src/gpu/shaders-vite.ts.',
      );
    }
    seen.add(f);
    return text.replace(INCLUDE, (_m, inc: string) => (seen.has(inc) ? '' : resolve(inc)));
  };
  return resolve(file);
}
