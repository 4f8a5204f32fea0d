/**
 * The command line: picks the command, maps errors to exit codes. Each command
 * lives in src/parent/commands/; the work happens in the library.
 */
import { Command, CommanderError } from 'commander';
import { ParameterError, UsageError } from '../shared/types/errors.js';
import { asFlagMessage } from './commands/parameter-flags.js';
import { inPlanTerms } from './commands/plan/plan-naming.js';
import { toolVersion } from '../shared/package-version.js';
import { runFromArgs } from './commands/run.js';
import { listFromArgs } from './commands/list.js';
import { reportFromArgs } from './commands/report.js';
import { compareFromArgs } from './commands/compare.js';
import { mergeFromArgs } from './commands/merge.js';
import { capacityFromArgs } from './commands/capacity.js';
import { k8sFromArgs } from './commands/k8s.js';
import { recoverFromArgs } from './commands/recover.js';
import { initFromArgs } from './commands/init.js';
import { redactUrlsIn } from './redact/url-secrets.js';
import { terminalLines, terminalText } from './escape/terminal.js';
import { commanderLine } from './commands/subcommand.js';
import { didYouMean } from '../shared/near-name.js';
import { leaveIfInterruptedWhileLoading } from './commands/interrupts.js';

/**
 * Bare `wsbench`: the quick suite, echo over every stack pair (Node, Bun and Deno stacks alike), each
 * pair in 3 interleaved rounds: rounds spread every pair over the whole minute, so each number's
 * interval (from its rounds) sees how far this machine drifts, which one longer window cannot. Until
 * decided, within its minute: where the first rounds leave a ranking undecided and the minute has room,
 * more rounds (on a busy 2-core machine the first three take the minute, and it stops there).
 */
const QUICK_SUITE = ['echo', '--preset', 'quick', '--repeat', '3', '--until-decided', '--budget', '1m'];

const COMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  run: runFromArgs,
  list: listFromArgs,
  report: reportFromArgs,
  compare: compareFromArgs,
  merge: mergeFromArgs,
  capacity: capacityFromArgs,
  k8s: k8sFromArgs,
  recover: recoverFromArgs,
  init: initFromArgs,
};

/** The commands that answer interrupts with a result (src/parent/commands/interrupts.ts); the rest end on one. */
const ANSWER_INTERRUPTS = new Set(['run', 'capacity']);

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0) return runFromArgs(QUICK_SUITE);
  const [name, ...rest] = argv as [string, ...string[]];
  if (!ANSWER_INTERRUPTS.has(name)) leaveIfInterruptedWhileLoading();
  const command = COMMANDS[name];
  if (command) return command(rest);
  if (name.startsWith('-')) return parseTopLevel(argv);
  throw new UsageError(
    `unknown command "${name}"${didYouMean(name, Object.keys(COMMANDS))} (commands: ${Object.keys(COMMANDS).join(', ')}; no command runs the quick suite)`,
  );
}

/** Handles `wsbench --help` and `wsbench --version`. */
function parseTopLevel(args: string[]): number {
  const program = new Command('wsbench')
    .version(toolVersion())
    .description(
      `Benchmark JavaScript WebSocket stacks side by side.\nCommands: ${Object.keys(COMMANDS).join(', ')}. With no command: the quick suite (echo over every stack pair).`,
    )
    .exitOverride();
  program.parse(args, { from: 'user' });
  return 0;
}

let settled = false;
// Node exits 0 when nothing is left to wait for: a command whose work vanished that way wrote nothing, and must not read as success.
// Judged the second time: a wait that knows why it can never end (a scenario that never loads) rejects on the
// first, and the command then ends with that reason; the turn given here keeps Node from exiting meanwhile.
let gaveOneMoreTurn = false;
process.on('beforeExit', () => {
  if (settled) return;
  if (!gaveOneMoreTurn) {
    gaveOneMoreTurn = true;
    setImmediate(() => undefined);
    return;
  }
  process.stderr.write('wsbench: internal error: the command stopped with its work unfinished and wrote no result\n');
  process.exit(1);
});

main(process.argv.slice(2)).then(
  (code) => {
    settled = true;
    process.exit(code);
  },
  (error: unknown) => {
    settled = true;
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') process.exit(0);
      process.stderr.write(`wsbench: ${terminalText(redactUrlsIn(commanderLine(error.message)))}\n`);
      process.exit(2);
    }
    if (error instanceof UsageError) {
      // A value a test plan gave is named as the plan's file and key, not as a flag the user never typed.
      const message = inPlanTerms(error instanceof ParameterError ? asFlagMessage(error) : error.message);
      process.stderr.write(`wsbench: ${terminalText(redactUrlsIn(message))}\n`);
      process.exit(2);
    }
    process.stderr.write(
      `wsbench: internal error: ${terminalLines(redactUrlsIn((error as Error).stack ?? String(error)))}\n`,
    );
    process.exit(1);
  },
);
