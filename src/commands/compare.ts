/** `wsbench compare base.json new.json [--fail-on-regression PCT] [--json]`: per-cell deltas. */
import { Command } from 'commander';
import { UsageError } from '../errors.js';
import { readResultFile } from '../result-file.js';
import { compareResults, regressionsBeyond, renderComparison } from '../report/compare.js';

interface CompareFlags {
  failOnRegression?: string;
  json?: boolean;
}

export async function compareFromArgs(args: string[]): Promise<number> {
  const command = new Command('wsbench compare')
    .argument('<base>', 'result JSON of the baseline')
    .argument('<new>', 'result JSON to compare with it')
    .option('--fail-on-regression <pct>', 'exit 1 when a cell got worse beyond the noise by more than this many percent')
    .option('--json', 'print the comparison as JSON')
    .exitOverride()
    .configureOutput({ writeErr: () => undefined });
  command.parse(args, { from: 'user' });
  const [basePath, nextPath] = command.args as [string, string];
  const flags = command.opts<CompareFlags>();
  const threshold = flags.failOnRegression === undefined ? null : readPercent(flags.failOnRegression);
  const comparison = compareResults(readResultFile(basePath), readResultFile(nextPath));
  if (comparison.cells.length === 0) {
    throw new UsageError(`${basePath} and ${nextPath} have no cell in common (cells match on scenario, server, client and every parameter)`);
  }
  process.stdout.write(flags.json ? JSON.stringify(comparison, null, 2) + '\n' : renderComparison(comparison, { base: basePath, next: nextPath }) + '\n');
  if (threshold === null) return 0;
  const regressions = regressionsBeyond(comparison, threshold);
  for (const { cell, delta } of regressions) {
    const change = delta.changePct === null ? `${delta.metric} became failed` : `${delta.metric} ${delta.changePct >= 0 ? '+' : ''}${delta.changePct.toFixed(1)}%`;
    process.stderr.write(`regression beyond ${threshold}%: ${cell}: ${change}\n`);
  }
  return regressions.length > 0 ? 1 : 0;
}

function readPercent(text: string): number {
  const value = Number(text.replace(/%$/, ''));
  if (text.trim() === '' || !Number.isFinite(value) || value < 0) throw new UsageError(`--fail-on-regression: "${text}" is not a percentage (a number >= 0)`);
  return value;
}
