// `rlvr report DIR…`: the ablation summary of finished run folders found below the given folders
// (from a sweep, from --emit-jobs commands run on a cluster, or any `rlvr train` runs): writes
// summary.json and summary.md, prints the Markdown (or, with --json, the JSON).

import { join } from 'node:path';
import { CliError, helpText, parseFlags, stringFlag, type FlagSpec } from '../core/flags';
import { commonFlag } from '../core/common-flags';
import { parseSolvedFlag, summarizeRunFolders, writeSummary } from './ablation-folders';
import { prepareOutDir } from './run-files';

export const REPORT_FLAGS: Record<string, FlagSpec> = {
  out: commonFlag('out', 'summary.json and summary.md (default: the first folder given)'),
  solved: commonFlag(
    'solved',
    "default: the sweep's ablation.json, else the preset's ablation, else held-out pass@1 at the curriculum target",
  ),
  'solved-level': commonFlag('solved-level'),
  metric: commonFlag('metric'),
  json: commonFlag('json', 'summary.json instead of the Markdown'),
};

/** Splits `DIR… --flag value …`: arguments that are neither flags nor a flag's value are folders. */
function splitArgs(argv: string[]): { dirs: string[]; flags: string[] } {
  const dirs: string[] = [];
  const flags: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) {
      dirs.push(a);
      continue;
    }
    flags.push(a);
    const spec = REPORT_FLAGS[a.slice(2)];
    if (spec && spec.kind !== 'switch' && !a.includes('=') && i + 1 < argv.length) flags.push(argv[++i]);
  }
  return { dirs, flags };
}

export async function reportCommand(
  argv: string[],
  out: (s: string) => void,
  err: (s: string) => void,
): Promise<number> {
  if (argv.includes('--help')) {
    out(helpText('report DIR…', REPORT_FLAGS));
    return 0;
  }
  const { dirs, flags } = splitArgs(argv);
  const f = parseFlags(flags, REPORT_FLAGS, 'report');
  if (dirs.length === 0) throw new CliError('report: give the folders to summarise, e.g. rlvr report runs/ablation');
  const s = summarizeRunFolders(dirs, {
    solved: parseSolvedFlag(f.solved as string | undefined, f['solved-level'] as string | undefined),
    metrics: f.metric as string[] | undefined,
  });
  const outDir = stringFlag(f, 'out', dirs[0]);
  prepareOutDir(outDir, '--out', ['summary.json', 'summary.md']);
  writeSummary(outDir, s);
  for (const w of s.warnings) err(`warning: ${w}`);
  out(f.json ? JSON.stringify(s.summary, null, 1) : s.markdown);
  err(`wrote ${join(outDir, 'summary.json')} and summary.md (${s.runs} runs, ${s.summary.cells.length} cells)`);
  return 0;
}
