/** `wsbench report results.json [--out dir] [--png]`: charts and HTML from a result file alone. */
import type { Command } from 'commander';
import { parseWords, subcommand } from './subcommand.js';
import { addFlags } from './flags/index.js';
import { argsWithPlanOf } from './plan/apply-plan.js';
import { UsageError } from '../../shared/types/errors.js';
import { readResultOrJournal } from '../journal/recover.js';
import { checkStoredHistograms } from '../report/stored-histograms.js';
import { resultFileWriter } from '../results/result-lock.js';
import { artifactsDirOf, checkArtifactsFolder, writeArtifacts } from '../report/html/artifacts.js';
import { chartProblems } from '../charts/index.js';
import { terminalText } from '../escape/terminal.js';

interface ReportFlags {
  out?: string;
  png?: boolean;
}

function reportCommand(): Command {
  const command = subcommand('wsbench report').argument(
    '<results>',
    'result JSON written by wsbench run, or the journal of a run that stopped without writing it',
  );
  addFlags(command, 'report');
  return command;
}

export async function reportFromArgs(args: string[]): Promise<number> {
  const words = await argsWithPlanOf('report', args, reportCommand, [{ key: 'results' }]);
  const {
    operands: [path],
    flags,
  } = parseWords<ReportFlags, [string]>(reportCommand(), words);
  // A journal's report goes where its run's would have: <out>.report/ beside <out>.journal.
  const outDir = flags.out ?? artifactsDirOf(path.replace(/\.journal$/, ''));
  try {
    checkArtifactsFolder(outDir);
  } catch (error) {
    throw flags.out !== undefined && error instanceof UsageError ? new UsageError(`--out: ${error.message}`) : error;
  }
  const writer = resultFileWriter(path);
  if (writer !== null)
    throw new UsageError(
      `${path} is being written by a wsbench run (pid ${writer}); report it once that run has ended`,
    );
  const result = await readResultOrJournal(path, (line) => process.stderr.write(`${terminalText(line)}\n`));
  checkStoredHistograms(result, path);
  const written = await writeArtifacts(result, path, { outDir, png: flags.png === true });
  process.stdout.write(written.map((p) => `${terminalText(p)}\n`).join(''));
  // Also in report.html, beside the charts that were drawn.
  for (const line of chartProblems(result)) process.stderr.write(`warning: ${terminalText(`${path}: ${line}`)}\n`);
  return 0;
}
