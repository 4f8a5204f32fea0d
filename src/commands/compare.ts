/**
 * `wsbench compare base.json new.json [--fail-on-regression PCT] [--format text|markdown|json] [--summary FILE]`:
 * per-cell deltas and a CI gate.
 *
 * Exit code: 0 compared (and the gate, if any, passed); 1 the gate failed;
 * 2 bad input (a file, a flag, no cell in common, a --summary that cannot be written).
 *
 * The gate's lines (each regression, then one line saying whether it passed,
 * against what threshold) end the text and Markdown output, so a saved or
 * posted comparison carries its verdict. They also go to stderr, which a CI log
 * shows even when stdout is redirected to a file or holds JSON; only when both
 * streams are a terminal are they printed once.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseWords, subcommand } from './subcommand.js';
import { UsageError } from '../errors.js';
import { appendToFile, checkAppendable as checkAppendableFile } from '../safe-files.js';
import { readResultOrJournal } from '../journal/recover.js';
import type { BenchResult } from '../result-types.js';
import { checkStoredHistograms } from '../report/stored-histograms.js';
import { compareResults } from '../report/compare.js';
import { gate, gateLines } from '../report/compare-gate.js';
import { renderComparison } from '../report/compare-text.js';
import { renderComparisonMarkdown } from '../report/compare-markdown.js';
import { terminalText } from '../escape/terminal.js';

const FORMATS = ['text', 'markdown', 'json'] as const;
type Format = (typeof FORMATS)[number];

interface CompareFlags {
  failOnRegression?: string;
  json?: boolean;
  format?: string;
  summary?: string;
}

export async function compareFromArgs(args: string[]): Promise<number> {
  const command = subcommand('wsbench compare')
    .argument('<base>', 'result JSON of the baseline (or the journal of a run that stopped without writing it)')
    .argument('<new>', 'result JSON to compare with it (or a journal)')
    .option(
      '--fail-on-regression <pct>',
      'exit 1 when a cell got worse beyond the noise by more than this many percent; a cell failed, skipped or missing in <new>, or a rise in errors, always counts',
    )
    .option('--format <format>', `what stdout gets: ${FORMATS.join(', ')}`, 'text')
    .option('--json', 'the same as --format json')
    .option('--summary <file>', 'also append the Markdown comparison to this file (e.g. "$GITHUB_STEP_SUMMARY")');
  const { operands: [basePath, nextPath], flags } = parseWords<CompareFlags, [string, string]>(command, args);
  const format = readFormat(flags);
  const threshold = flags.failOnRegression === undefined ? null : readPercent(flags.failOnRegression);
  if (flags.summary !== undefined) checkAppendable(flags.summary);
  const comparison = compareResults(await readChecked(basePath), await readChecked(nextPath));
  if (comparison.cells.length === 0) {
    throw new UsageError(`${basePath} and ${nextPath} have no cell in common (cells match on scenario, server, client and every parameter)`);
  }
  const verdict = threshold === null ? null : gate(comparison, threshold);
  const names = { base: basePath, next: nextPath };
  if (format === 'json') process.stdout.write(JSON.stringify({ ...comparison, gate: verdict }, null, 2) + '\n');
  else if (format === 'markdown') process.stdout.write(renderComparisonMarkdown(comparison, names, verdict));
  else process.stdout.write(renderComparison(comparison, names, verdict) + '\n');
  if (format === 'json') for (const warning of comparison.warnings) process.stderr.write(`warning: ${terminalText(warning)}\n`);
  if (verdict !== null && (format === 'json' || !(process.stdout.isTTY && process.stderr.isTTY))) {
    process.stderr.write(gateLines(verdict).map((l) => `${terminalText(l)}\n`).join(''));
  }
  if (flags.summary !== undefined) appendSummary(flags.summary, renderComparisonMarkdown(comparison, names, verdict));
  return verdict?.exitCode ?? 0;
}

/** A result file (or a journal's rebuilt result) whose histograms all decode (see stored-histograms.ts). */
async function readChecked(path: string): Promise<BenchResult> {
  const result = await readResultOrJournal(path, (line) => process.stderr.write(`note: ${terminalText(line)}\n`));
  checkStoredHistograms(result, path);
  return result;
}

function readFormat(flags: CompareFlags): Format {
  if (flags.json && flags.format !== 'text' && flags.format !== 'json') throw new UsageError(`--json and --format ${flags.format}: give one of them`);
  if (flags.json) return 'json';
  const format = FORMATS.find((f) => f === flags.format);
  if (!format) throw new UsageError(`--format: "${flags.format}" is not one of ${FORMATS.join(', ')}`);
  return format;
}

function readPercent(text: string): number {
  const value = Number(text.replace(/%$/, ''));
  if (text.trim() === '' || !Number.isFinite(value) || value < 0) throw new UsageError(`--fail-on-regression: "${text}" is not a percentage (a number >= 0)`);
  return value;
}

/** Fails before anything is compared when `path` could not be appended to. */
function checkAppendable(path: string): void {
  const directory = dirname(resolve(path));
  if (!existsSync(directory) || !statSync(directory).isDirectory()) throw new UsageError(`--summary: directory ${directory} does not exist`);
  checkAppendableFile(path, '--summary');
}

/** A step summary holds what earlier steps wrote: add to it, a blank line apart (a regular file only, never through a link). */
function appendSummary(path: string, markdown: string): void {
  appendToFile(path, `\n${markdown}`, '--summary');
}
