// A small, strict flag parser for the CLI: `--name value`, `--flag`, repeated `--set k=v`.
// Unknown flags are an error naming the allowed ones, so a typo never runs the wrong thing.

export class CliError extends Error {}

export interface FlagSpec {
  /** Takes a value (`--seed 3`) or is a boolean switch (`--json`). */
  kind: 'value' | 'switch' | 'multi';
  doc: string;
}

export type ParsedFlags = Record<string, string | boolean | string[] | undefined>;

export function parseFlags(argv: string[], spec: Record<string, FlagSpec>, command: string): ParsedFlags {
  const out: ParsedFlags = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new CliError(`${command}: unexpected argument "${arg}"`);
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    const s = spec[name];
    if (!s) {
      throw new CliError(`${command}: unknown flag --${name}; allowed: ${Object.keys(spec).map((k) => '--' + k).join(', ')}`);
    }
    if (s.kind === 'switch') {
      out[name] = true;
      continue;
    }
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new CliError(`${command}: --${name} needs a value`);
    if (s.kind === 'multi') ((out[name] as string[] | undefined) ?? (out[name] = [])).push(value);
    else out[name] = value;
  }
  return out;
}

export function intFlag(flags: ParsedFlags, name: string, def: number | undefined, min: number, max: number): number {
  const raw = flags[name];
  if (raw === undefined) {
    if (def === undefined) throw new CliError(`--${name} is required (an integer in [${min}, ${max}])`);
    return def;
  }
  const v = Number(raw);
  if (!Number.isInteger(v) || v < min || v > max) {
    throw new CliError(`--${name} must be an integer in [${min}, ${max}], got "${String(raw)}"`);
  }
  return v;
}

export function stringFlag(flags: ParsedFlags, name: string, def?: string): string {
  const raw = flags[name];
  if (raw === undefined) {
    if (def === undefined) throw new CliError(`--${name} is required`);
    return def;
  }
  return String(raw);
}

export function helpText(command: string, spec: Record<string, FlagSpec>): string {
  const rows = Object.entries(spec).map(([k, s]) => `  --${k}${s.kind === 'switch' ? '' : ' <value>'}\n      ${s.doc}`);
  return `usage: rlvr ${command} [flags]\n${rows.join('\n')}`;
}
