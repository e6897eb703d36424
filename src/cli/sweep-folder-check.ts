// A sweep's --out checked before any run starts: what its summary would count must be this
// sweep's own (the same ablation.json, no run folders of another).

import { existsSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { CliError } from '../core/flags';
import {
  ABLATION_FILE,
  findRunFolders,
  parseAblationFile,
  readJsonFile,
  type AblationFile,
} from './ablation-side-files';

const SPEC_FIELDS = ['preset', 'variants', 'grid', 'seeds', 'steps', 'sets', 'solved', 'metrics', 'init'] as const;

/**
 * Refuses a sweep's --out that holds what its summary must not count: another sweep's
 * ablation.json (one that differs in a field: the cells, seeds, steps, solved rule or metrics),
 * or run folders that are not among `jobDirs`. The same sweep again (to finish it) passes.
 */
export function checkSweepFolder(dir: string, want: AblationFile, jobDirs: readonly string[]): void {
  const specPath = join(dir, ABLATION_FILE);
  if (existsSync(specPath)) {
    let have: AblationFile;
    try {
      have = parseAblationFile(readJsonFile(specPath), specPath);
    } catch (e) {
      if (!(e instanceof CliError)) throw e;
      throw new CliError(
        `--out ${dir}: its ${ABLATION_FILE} is not one rlvr sweep wrote (${e.message}); give a new folder`,
      );
    }
    const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v)).slice(0, 80);
    const field = SPEC_FIELDS.find((k) => JSON.stringify(have[k]) !== JSON.stringify(want[k]));
    if (field) {
      throw new CliError(
        `--out ${dir} holds another ablation (its ${ABLATION_FILE} has ${field} ${show(have[field])}, this sweep ${show(want[field])}): ` +
          'give a new folder, or the same flags to go on with that one',
      );
    }
  }
  const own = new Set(jobDirs.map((d) => resolve(d)));
  const foreign = findRunFolders(dir)
    .filter((f) => !own.has(resolve(f)))
    .map((f) => relative(dir, f).split(sep).join('/') || '.');
  if (foreign.length) {
    const n = foreign.length;
    const list = `${foreign.slice(0, 3).join(', ')}${n > 3 ? `, … ${n - 3} more` : ''}`;
    throw new CliError(
      `--out ${dir} already holds ${n} run folder${n === 1 ? ' that is' : 's that are'} not this sweep's (${list}): ` +
        `its summary would count ${n === 1 ? 'it' : 'them'}; give a new folder`,
    );
  }
}
