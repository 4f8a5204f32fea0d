/** `wsbench run <scenario>`: scenario flags, one plan, its execution, the stdout format and --format files, result file. */
import { execute, planRun, type RunOptions } from '../run.js';
import { checkOutputs } from '../result-output.js';
import { lockResultFile } from '../results/result-lock.js';
import { createProgress } from '../live/progress.js';
import { runFilesOf, outputsFromFlags } from './format-flags.js';
import { printAndSave, writeReportAndExitCode } from './run-output.js';
import { answerInterrupts, holdInterrupts } from './interrupts.js';
import { answerWithoutScenario, namesNoScenario } from './scenario-help.js';
import { liveViews, startLiveViews, withLiveViews } from './live-flags.js';
import { endRunJournal, openRunJournal, withJournal } from './journal-flags.js';
import { parseRunArgs, runCommand, type ParsedRunArgs } from './run-args.js';
import { appendSummary, checkAppendable } from './compare.js';
import { renderResultMarkdown } from '../report/run/run-markdown.js';
import { exposureWarning, type ListenAddress } from '../../shared/listen-address.js';
import { configPathIn } from './plan/read-plan.js';
import { withTestPlan } from './plan/plan-record.js';

/** Shard 0's line about its barrier, and the warning when the barrier is reachable beyond loopback. */
function barrierListening(shard: { runId: string; count: number }, address: string, bound: ListenAddress): void {
  process.stderr.write(`barrier: run ${shard.runId}, ${shard.count} shards, on ${address}\n`);
  const warning = exposureWarning('the barrier (--barrier-listen)', bound);
  if (warning) process.stderr.write(`${warning}\n`);
}

async function executeRun({
  loaded,
  flags,
  options: parsed,
  maxErrors,
  plan: testPlan,
}: ParsedRunArgs): Promise<number> {
  const live = liveViews(flags);
  const journal = await openRunJournal(flags, loaded, testPlan);
  const controller = new AbortController();
  const outputs = outputsFromFlags(flags, 'run', runFilesOf(flags.out));
  // Progress goes to stderr, but only beside text for people: JSON, CSV or JUnit on stdout is read by a program.
  const progress = createProgress(
    process.stderr,
    !outputs.stdout.format.forPeople ? 'off' : process.stderr.isTTY === true ? 'tty' : 'lines',
  );
  const shard = parsed.shard;
  const options: RunOptions = {
    ...parsed,
    signal: controller.signal,
    argv: process.argv.slice(2),
    ...(shard
      ? {
          shard: {
            ...shard,
            onBarrierListening: (address: string, bound: ListenAddress) => barrierListening(shard, address, bound),
          },
        }
      : {}),
    onEvent: withJournal(journal, withLiveViews(live, progress.onEvent)),
  };
  checkOutputs(flags.out);
  if (flags.summary !== undefined) checkAppendable(flags.summary);
  const plan = await planRun(options, loaded); // every bad input is refused before a process starts
  await startLiveViews(live);

  // One writer per result file: a second run with the same --out is refused, not mixed in.
  const lock = lockResultFile(flags.out);
  const stopAnswering = answerInterrupts(controller, 'cell');
  try {
    const result = withTestPlan(await execute(plan, options), testPlan);
    progress.done();
    const output = { out: flags.out, outputs, png: flags.png === true, maxErrors };
    // Interrupts stay answered until the JSON is on disk: a late one must not cut the write short.
    const saved = printAndSave(result, output);
    await endRunJournal(journal, saved, flags);
    if (flags.summary !== undefined) appendSummary(flags.summary, renderResultMarkdown(result));
    // No child is left to wait for: from here Ctrl+C may simply end the process.
    stopAnswering();
    return await writeReportAndExitCode(result, saved, output);
  } finally {
    stopAnswering();
    await journal?.close();
    lock.release();
    await live.close();
  }
}

/** Parses `run` arguments (after the word `run`) and runs; returns the exit code. */
export async function runFromArgs(args: string[]): Promise<number> {
  // From here, a Ctrl+C is held until the run can answer it with a result, never fatal.
  holdInterrupts();
  if (namesNoScenario(args) && configPathIn(args) === null)
    return answerWithoutScenario('run', args, (generic) => runCommand(generic, []).command);
  return executeRun(await parseRunArgs(args));
}
