// `npm run rlvr -- <command>`: the headless entry to the engine and the tasks.

import { CliError, HelpRequested } from '../core/flags';
import { GpuError } from '../gpu/gpu-errors';
import { exitAfterDrain, lineWriter } from './output';
import { tasksCommand } from './tasks';
import { initCommand, forwardCommand } from './model-commands';
import { trainCommand } from './train-commands';
import { evalCommand } from './eval-command';
import { referenceCommand } from './reference-command';
import { sweepCommand } from './sweep-command';
import { completionCommand } from './completion';
import { isSuiteArgv, suiteCommand } from './suite-command';
import { reportCommand } from './report-command';

const USAGE = `usage: npm run rlvr -- <command> [flags]
commands:
  tasks list|sample|verify   inspect and check the tasks (rlvr tasks --help)
  init                        write a freshly initialised model (.safetensors)
  forward                     logits, loss and (--backward) gradients of a checkpoint on a token list
  train                       an RL run: --preset NAME | --config FILE, --set knob=value, --steps, --seed, --out DIR
  eval                        greedy pass@1 and pass@k of a checkpoint on fresh prompts
  reference                   condense finished train runs of a lesson into the page's faint reference curves
  sweep                       an ablation over seeds: --preset P [--grid knob=a,b] [--variant L] --seeds 0-3 --jobs J --out DIR
                              or a fixed protocol: --suite methods --jobs J --out DIR (docs/leaderboard.md)
                              (--slurm: submit the runs as one Slurm job array; --emit-jobs: print one train command per run)
  report DIR…                 statistics over seeds of finished run folders: summary.json, summary.md
  completion bash             a bash completion script for commands, flags and presets: source <(npx rlvr completion bash)
Run a command with --help for its flags.`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const err = lineWriter(process.stderr);
  // A closed stdout (`| head`) must not cost a run: say so once, keep working.
  const out = lineWriter(process.stdout, (why) =>
    err(`note: stdout closed (${why}); the ${command ?? ''} command goes on without printing`),
  );
  if (!command || command === '--help' || command === 'help') {
    out(USAGE);
    return command ? 0 : 2;
  }
  try {
    switch (command) {
      case 'tasks':
        return await tasksCommand(rest, { stdin: process.stdin, stdout: out, stderr: err });
      case 'init':
        return await initCommand(rest, out);
      case 'forward':
        return await forwardCommand(rest, out, (await import('./gpu-forward')).gpuForward);
      case 'train':
        return await trainCommand(rest, out, err);
      case 'eval':
        return await evalCommand(rest, out, err);
      case 'reference':
        return await referenceCommand(rest, out);
      case 'sweep':
        // Children run this same CLI: the same node, loader flags (tsx) and entry file.
        return await (isSuiteArgv(rest) ? suiteCommand : sweepCommand)(rest, {
          out,
          err,
          tty: Boolean(process.stderr.isTTY),
          cli: [process.execPath, ...process.execArgv, process.argv[1]],
        });
      case 'report':
        return await reportCommand(rest, out, err);
      case 'completion':
        return completionCommand(rest, out);
      default:
        err(`unknown command "${command}"\n${USAGE}`);
        return 2;
    }
  } catch (e) {
    if (e instanceof HelpRequested) {
      out(e.text);
      return 0;
    }
    if (e instanceof CliError) {
      err(`error: ${e.message}`);
      return 2;
    }
    if (e instanceof GpuError) {
      err(`error: ${e.message}`);
      return 4;
    }
    throw e;
  }
}

main(process.argv.slice(2)).then(
  (code) => exitAfterDrain(code),
  (e) => {
    console.error(e);
    return exitAfterDrain(1);
  },
);
