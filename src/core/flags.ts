// A small, strict flag parser for the command lines (`rlvr` and `npm run bench`): `--name value`,
// `--flag`, repeated `--set k=v`. It lives in core so the bench suites need not import the CLI.
// Unknown flags are an error naming the allowed ones, so a typo never runs the wrong thing.

import { quoteInput, shortText } from './quote';

export class CliError extends Error {}

/**
 * Runs `work`; an error of one of `kinds` (a bad config, an unreadable checkpoint) becomes a
 * CliError with its message, so the command ends with exit code 2 and the message alone.
 */
export function asCliError<T>(work: () => T, ...kinds: (abstract new (...args: never[]) => Error)[]): T {
  try {
    return work();
  } catch (e) {
    if (kinds.some((k) => e instanceof k)) throw new CliError((e as Error).message);
    throw e;
  }
}

/** `--help` (or `-h`) on a command: not an error; main prints `text` and exits 0. */
export class HelpRequested extends Error {
  constructor(readonly text: string) {
    super('help requested');
  }
}

export interface FlagSpec {
  /** Takes a value (`--seed 3`) or is a boolean switch (`--json`). */
  kind: 'value' | 'switch' | 'multi';
  doc: string;
  /** Its value is other flags passed on (`--sbatch-args "--time=1:00:00"`): it may start with --. */
  flagsValue?: boolean;
  /** Its values, when they are a closed list (shell completion offers them; the command checks the value). */
  values?: readonly string[];
}

export type ParsedFlags = Record<string, string | boolean | string[] | undefined>;

/**
 * Parses `--name value`, `--name=value` and switches against `spec`. Strict: an unknown flag, a
 * value flag given twice, an empty value, or a missing one is a CliError naming the flag.
 * `--help`/`-h` throws HelpRequested with the command's help (unless the spec has its own `help`).
 */
export function parseFlags(argv: string[], spec: Record<string, FlagSpec>, command: string): ParsedFlags {
  const out: ParsedFlags = {};
  if (!spec.help && argv.some((a) => a === '--help' || a === '-h')) throw new HelpRequested(helpText(command, spec));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new CliError(`${command}: unexpected argument ${quoteInput(arg)}`);
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    const s = spec[name];
    if (!s) {
      throw new CliError(
        `${command}: unknown flag --${shortText(name)}; allowed: ${Object.keys(spec)
          .map((k) => '--' + k)
          .join(', ')}`,
      );
    }
    if (s.kind === 'switch') {
      if (eq > 0) throw new CliError(`${command}: --${name} is a switch and takes no value, got ${quoteInput(arg)}`);
      out[name] = true;
      continue;
    }
    let value: string | undefined;
    if (eq > 0) value = arg.slice(eq + 1);
    else {
      value = argv[++i];
      // `--out --json`: the next flag is not a value.
      if (value !== undefined && value.startsWith('--') && !s.flagsValue) {
        throw new CliError(`${command}: --${name} needs a value, got the flag ${shortText(value)}`);
      }
    }
    if (value === undefined) throw new CliError(`${command}: --${name} needs a value`);
    if (value.trim() === '') throw new CliError(`${command}: --${name} needs a value, got an empty one`);
    if (s.kind === 'multi') ((out[name] as string[] | undefined) ?? (out[name] = [])).push(value);
    else if (out[name] !== undefined)
      throw new CliError(
        `${command}: --${name} is given twice (${quoteInput(String(out[name]))} and ${quoteInput(value)})`,
      );
    else out[name] = value;
  }
  return out;
}

const INTEGER_TEXT = /^[-+]?\d+$/;

export function intFlag(flags: ParsedFlags, name: string, def: number | undefined, min: number, max: number): number {
  const raw = flags[name];
  if (raw === undefined) {
    if (def === undefined) throw new CliError(`--${name} is required (an integer in [${min}, ${max}])`);
    return def;
  }
  const text = String(raw).trim();
  const v = INTEGER_TEXT.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(v) || v < min || v > max) {
    throw new CliError(`--${name} must be an integer in [${min}, ${max}], got ${quoteInput(String(raw))}`);
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
  if (!spec.help) rows.push('  --help\n      show this help');
  return `usage: rlvr ${command} [flags]\n${rows.join('\n')}`;
}
