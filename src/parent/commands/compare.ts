/**
 * `wsbench compare base.json new.json [--fail-on-regression PCT] [--inconclusive pass|fail] [--format NAME[=FILE]] [--summary FILE]`,
 * or `wsbench compare result.json --servers base,new` (two servers of one run, paired round by round):
 * per-cell changes with their intervals and verdicts, and a CI gate.
 *
 * Exit code: 0 compared (and the gate, if any, passed); 1 the gate found a regression;
 * 3 nothing regressed but a change was inconclusive and --inconclusive fail was given;
 * 2 bad input (a file, a flag, no cell in common, a --summary that cannot be written, a format
 * that renders no comparison). A --format file that cannot be written makes an exit code of 0 a 1.
 *
 * The gate's lines (each regression, then one line saying whether it passed,
 * against what threshold) end the text and Markdown output, so a saved or
 * posted comparison carries its verdict. They also go to stderr, which a CI log
 * shows even when stdout is redirected to a file or holds JSON; only when both
 * streams are a terminal are they printed once. A stdout format not for people (JSON, JUnit) gets
 * its warnings on stderr too.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { parseWords, subcommand } from './subcommand.js';
import { UsageError } from '../../shared/types/errors.js';
import { appendToFile, checkAppendable as checkAppendableFile } from '../../shared/safe-files.js';
import { readResultOrJournal } from '../journal/recover.js';
import type { BenchResult } from '../../shared/types/result-types.js';
import { checkStoredHistograms } from '../report/stored-histograms.js';
import { compareResults, compareServers } from '../compare/compare.js';
import { gate, gateLines, type InconclusivePolicy } from '../compare/compare-gate.js';
import { DEFAULT_MARGIN_PCT } from '../stats/verdict.js';
import { renderComparisonMarkdown } from '../compare/compare-markdown.js';
import { terminalText } from '../escape/terminal.js';
import { outputsFromFlags, renderStdout, writeFormatFiles, type FormatFlags } from './format-flags.js';
import { addFlags, readFlag } from './flags/index.js';
import { argsWithPlanOf } from './plan/apply-plan.js';

interface CompareFlags extends FormatFlags {
  failOnRegression?: string;
  inconclusive?: string;
  servers?: string;
  summary?: string;
}

export async function compareFromArgs(args: string[]): Promise<number> {
  const command = compareCommand();
  const words = await argsWithPlanOf('compare', args, compareCommand, [{ key: 'base' }, { key: 'new' }]);
  const {
    operands: [basePath, nextPath],
    flags,
  } = parseWords<CompareFlags, [string, string]>(command, words) as {
    operands: [string, string | undefined];
    flags: CompareFlags;
  };
  const outputs = outputsFromFlags(
    flags,
    'comparison',
    [basePath, ...(nextPath === undefined ? [] : [nextPath])].map((path) => ({ path, flag: 'input' })),
  );
  const threshold = readFlag<number>(flags, '--fail-on-regression') ?? null;
  const policy = readPolicy(flags, threshold !== null);
  const servers = flags.servers === undefined ? null : readServers(flags.servers, nextPath);
  if (servers === null && nextPath === undefined)
    throw new UsageError('compare: give two result files, or one with --servers base,new');
  if (flags.summary !== undefined) checkAppendable(flags.summary);
  const marginPct = threshold ?? DEFAULT_MARGIN_PCT;
  const comparison = servers
    ? compareServers(await readChecked(basePath), servers.base, servers.next, { marginPct })
    : compareResults(await readChecked(basePath), await readChecked(nextPath!), { marginPct });
  if (comparison.cells.length === 0) {
    throw new UsageError(
      servers
        ? `${basePath} has no cell of ${servers.base} and ${servers.next} with the same client and parameters`
        : `${basePath} and ${nextPath} have no cell in common (cells match on scenario, server, client and every parameter)`,
    );
  }
  const verdict = threshold === null ? null : gate(comparison, threshold, policy);
  const names = servers
    ? { base: `${servers.base} in ${basePath}`, next: `${servers.next} in ${basePath}` }
    : { base: basePath, next: nextPath! };
  const output = { comparison, names, gate: verdict, inconclusive: policy };
  process.stdout.write(renderStdout(outputs, output));
  // The table and Markdown carry the warnings and the gate's lines; JSON, JUnit and the like do not say them to a reader.
  const forPeople = outputs.stdout.format.forPeople;
  if (!forPeople)
    for (const warning of comparison.warnings) process.stderr.write(`warning: ${terminalText(warning)}\n`);
  if (verdict !== null && (!forPeople || !(process.stdout.isTTY && process.stderr.isTTY))) {
    process.stderr.write(
      gateLines(verdict)
        .map((l) => `${terminalText(l)}\n`)
        .join(''),
    );
  }
  if (flags.summary !== undefined) appendSummary(flags.summary, renderComparisonMarkdown(comparison, names, verdict));
  const unwritten = writeFormatFiles(outputs, output);
  const code = verdict?.exitCode ?? 0;
  return unwritten > 0 && code === 0 ? 1 : code;
}

function compareCommand(): Command {
  const command = subcommand('wsbench compare')
    .argument(
      '<base>',
      'result JSON of the baseline (or the journal of a run that stopped without writing it); with --servers, the one result to compare two servers of',
    )
    .argument('[new]', 'result JSON to compare with it (or a journal); not with --servers');
  addFlags(command, 'compare');
  return command;
}

/** A result file (or a journal's rebuilt result) whose histograms all decode (see stored-histograms.ts). */
async function readChecked(path: string): Promise<BenchResult> {
  const result = await readResultOrJournal(path, (line) => process.stderr.write(`note: ${terminalText(line)}\n`));
  checkStoredHistograms(result, path);
  return result;
}

function readPolicy(flags: CompareFlags, gated: boolean): InconclusivePolicy {
  const policy = readFlag<InconclusivePolicy>(flags, '--inconclusive') ?? 'pass';
  if (policy === 'fail' && !gated)
    throw new UsageError('--inconclusive fail: give --fail-on-regression too (it is the gate that fails)');
  return policy;
}

/** `base,new`: two different server names; not beside a second file. */
function readServers(text: string, second: string | undefined): { base: string; next: string } {
  if (second !== undefined)
    throw new UsageError(`--servers compares two servers of one result: give one file, not ${second} too`);
  const names = text.split(',').map((s) => s.trim());
  if (names.length !== 2 || names.some((n) => n === '') || names[0] === names[1]) {
    throw new UsageError(`--servers: "${text}" is not two different server names, base and new, such as base,new`);
  }
  return { base: names[0]!, next: names[1]! };
}

/** Fails before anything is compared when `path` could not be appended to. */
export function checkAppendable(path: string): void {
  const directory = dirname(resolve(path));
  if (!existsSync(directory) || !statSync(directory).isDirectory())
    throw new UsageError(`--summary: directory ${directory} does not exist`);
  checkAppendableFile(path, '--summary');
}

/** A step summary holds what earlier steps wrote: add to it, a blank line apart (a regular file only, never through a link). */
export function appendSummary(path: string, markdown: string): void {
  appendToFile(path, `\n${markdown}`, '--summary');
}
