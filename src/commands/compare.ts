/** `wsbench compare base.json new.json [--fail-on-regression PCT] [--json]`: per-cell deltas and a CI gate. */
import { Command } from 'commander';
import { UsageError } from '../errors.js';
import { readResultFile } from '../result-file.js';
import { compareResults, renderComparison } from '../report/compare.js';
import { gate } from '../report/compare-gate.js';

interface CompareFlags {
  failOnRegression?: string;
  json?: boolean;
}

export async function compareFromArgs(args: string[]): Promise<number> {
  const command = new Command('wsbench compare')
    .argument('<base>', 'result JSON of the baseline')
    .argument('<new>', 'result JSON to compare with it')
    .option('--fail-on-regression <pct>', 'exit 1 when a cell got worse beyond the noise by more than this many percent (a failed cell or a new error always counts)')
    .option('--json', 'print the comparison, and the gate when --fail-on-regression is set, as JSON')
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
  const verdict = threshold === null ? null : gate(comparison, threshold);
  if (flags.json) process.stdout.write(JSON.stringify({ ...comparison, gate: verdict }, null, 2) + '\n');
  else process.stdout.write(renderComparison(comparison, { base: basePath, next: nextPath }) + '\n');
  for (const warning of flags.json ? comparison.warnings : []) process.stderr.write(`warning: ${warning}\n`);
  if (verdict === null) return 0;
  for (const r of verdict.regressions) {
    const change = r.key === 'status' ? `status ${r.base} -> ${r.next}` : r.changePct === null ? `${r.metric} ${r.base} -> ${r.next}` : `${r.metric} ${r.changePct >= 0 ? '+' : ''}${r.changePct.toFixed(1)}%`;
    process.stderr.write(`regression beyond ${threshold}%: ${r.cell}: ${change}\n`);
  }
  return verdict.exitCode;
}

function readPercent(text: string): number {
  const value = Number(text.replace(/%$/, ''));
  if (text.trim() === '' || !Number.isFinite(value) || value < 0) throw new UsageError(`--fail-on-regression: "${text}" is not a percentage (a number >= 0)`);
  return value;
}
