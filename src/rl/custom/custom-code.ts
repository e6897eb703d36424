// A run's own code, loaded once and called every step (docs/custom-estimators.md): the source is
// transpiled (./transpile.ts), evaluated once in its sandbox, and each call's output is checked
// (./checks.ts) before the trainer uses it. Every failure is a CustomCodeError with the line.

import { activeCode, CODE_FUNCTION, CODE_KINDS, functionLine, type CodeKind } from '../../config/user-code';
import type { RunConfig } from '../../config/config';
import { checkOutput, checkUnchanged, type AllowedLength } from './checks';
import { codeFile, CustomCodeError, thrownError } from './custom-code-errors';
import type { Sandbox, SandboxFactory, SandboxInput, SandboxReply } from './sandbox';
import { transpile } from './transpile';

/** Loading the code (its top level, and starting a worker in the page) gets at least this long. */
export const MIN_LOAD_MS = 10_000;

export class CustomCode {
  private constructor(
    readonly kind: CodeKind,
    readonly source: string,
    private readonly sandbox: Sandbox,
    private readonly timeLimitMs: number,
    private readonly firstLineShift: number,
  ) {}

  /** Transpiles and evaluates `source` in a new sandbox; throws CustomCodeError (the sandbox is then disposed). */
  static async load(
    kind: CodeKind,
    source: string,
    makeSandbox: SandboxFactory,
    timeLimitMs: number,
    loadLimitMs = Math.max(MIN_LOAD_MS, timeLimitMs),
  ): Promise<CustomCode> {
    const { js, firstLineShift } = await transpile(kind, source);
    const sandbox = makeSandbox(kind);
    try {
      const limit = loadLimitMs;
      const reply = await sandbox.compile(js, kind, codeFile(kind), limit);
      if (!reply.ok) {
        if (reply.timedOut) {
          throw new CustomCodeError(
            kind,
            'timeout',
            `loading the code did not finish within ${limit} ms: an endless loop at its top level?`,
          );
        }
        throw thrownError(kind, source, reply.error, 'load', firstLineShift);
      }
      return new CustomCode(kind, source, sandbox, timeLimitMs, firstLineShift);
    } catch (e) {
      sandbox.dispose();
      throw e;
    }
  }

  /** One call: the checked output, a fresh Float64Array of one of the allowed lengths. */
  async call(input: SandboxInput, allowed: readonly AllowedLength[]): Promise<Float64Array> {
    let reply: SandboxReply;
    try {
      reply = await this.sandbox.call(input, this.timeLimitMs);
    } catch (e) {
      throw new CustomCodeError(
        this.kind,
        'exception',
        `the sandbox failed: ${(e as Error).message}`,
        functionLine(this.source, this.kind),
      );
    }
    if (!reply.ok) {
      if (reply.timedOut) {
        throw new CustomCodeError(
          this.kind,
          'timeout',
          `${CODE_FUNCTION[this.kind]}(batch) did not return within ${this.timeLimitMs} ms (customTimeLimitMs): an endless loop? Its sandbox was stopped.`,
          functionLine(this.source, this.kind),
        );
      }
      throw thrownError(this.kind, this.source, reply.error, 'call', this.firstLineShift);
    }
    const values = checkOutput(this.kind, this.source, reply.output, allowed);
    checkUnchanged(this.kind, this.source, input, reply.after);
    return values;
  }

  dispose(): void {
    this.sandbox.dispose();
  }
}

/** The code a run calls, by kind (absent: the built-in path). */
export type RunCode = Partial<Record<CodeKind, CustomCode>>;

/** Loads the config's active code (none when it has none); a failure disposes what was loaded. */
export async function loadRunCode(config: RunConfig, makeSandbox: SandboxFactory | undefined): Promise<RunCode> {
  const sources = activeCode(config);
  const kinds = CODE_KINDS.filter((k) => sources[k] !== undefined);
  if (kinds.length === 0) return {};
  if (!makeSandbox)
    throw new CustomCodeError(kinds[0], 'load', 'this runner cannot run custom code (it was given no sandbox)');
  const out: RunCode = {};
  try {
    for (const kind of kinds)
      out[kind] = await CustomCode.load(kind, sources[kind]!, makeSandbox, config.customTimeLimitMs);
  } catch (e) {
    disposeRunCode(out);
    throw e;
  }
  return out;
}

export function disposeRunCode(code: RunCode): void {
  for (const c of Object.values(code)) c?.dispose();
}
