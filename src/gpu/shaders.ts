// WGSL sources, one registry for browser and Node (WGSL lives in .wgsl files: docs/architecture.md, "Conventions").
//
// The browser build registers `shaders/*.wgsl` through Vite's `?raw` import (shaders-vite.ts);
// Node reads the same files from disk (shaders-node.ts). A shader may pull in a shared
// library file with a line `//#include "random.wgsl"`; specialisation is done with WGSL
// `override` constants, never by editing the text. The one exception is a device feature that
// needs an `enable` directive (docs/engine.md, "Device features"): in the `subgroups` variant an
// include of `x.wgsl` takes `x_subgroups.wgsl` where that file exists, and the `enable` lines
// of the included files move to the top of the module (WGSL wants them before any declaration).

const sources = new Map<string, string>();
/** `${name}+${variant}` → whether the variant changes the kernel's text. */
const variantMemo = new Map<string, boolean>();

/** Register raw sources keyed by file name (e.g. "add.wgsl"). */
export function registerShaderSources(files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) sources.set(baseName(name), text);
  variantMemo.clear();
}

export function hasShaderSources(): boolean {
  return sources.size > 0;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

const INCLUDE = /^\s*\/\/#include\s+"([^"]+)"\s*$/gm;
const ENABLE = /^[ \t]*enable[ \t]+[\w \t,]+;[ \t]*$/gm;

/** A kernel's text variant: 'plain', or 'subgroups' (library files swapped for their `_subgroups` twins). */
export type ShaderVariant = 'plain' | 'subgroups';

/** The file an include of `f` reads in `variant`. */
function variantFile(f: string, variant: ShaderVariant): string {
  if (variant === 'plain') return f;
  const twin = f.replace(/\.wgsl$/, `_${variant}.wgsl`);
  return sources.has(twin) ? twin : f;
}

/** Whether `variant` changes the text of kernel `name` (some include of it has a twin). */
export function hasShaderVariant(name: string, variant: ShaderVariant): boolean {
  if (variant === 'plain') return false;
  const key = `${name}+${variant}`;
  let has = variantMemo.get(key);
  if (has === undefined) {
    has = shaderSource(name, variant) !== shaderSource(name);
    variantMemo.set(key, has);
  }
  return has;
}

/** The full text of a kernel with its includes resolved (each included once). */
export function shaderSource(name: string, variant: ShaderVariant = 'plain'): string {
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
    return text.replace(INCLUDE, (_m, inc: string) => {
      const v = variantFile(inc, variant);
      return seen.has(v) ? '' : resolve(v);
    });
  };
  const code = resolve(file);
  const enables = [...new Set(code.match(ENABLE)?.map((l) => l.trim()))];
  return enables.length ? `${enables.join('\n')}\n${code.replace(ENABLE, '')}` : code;
}
