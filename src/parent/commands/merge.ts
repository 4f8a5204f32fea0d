/**
 * `wsbench merge shard-*.json [--out merged.json] [--format NAME[=FILE]] [--max-errors N]`: one
 * result from the shards of a run. It exits as `run` does (run-output.ts): 1 when a merged cell failed, failed
 * its --slo or has errors beyond --max-errors, with the reason on stderr. An input may be a result file or a log holding results one JSON
 * line each (`kubectl logs` of the shard pods).
 */
import { statSync } from 'node:fs';
import type { Command } from 'commander';
import { subcommand } from './subcommand.js';
import { UsageError } from '../../shared/types/errors.js';
import { readChecked } from '../../shared/safe-files.js';
import { checkWritable, resultFromJson, writeResultFile } from '../results/result-file.js';
import { outputsFromFlags, renderStdout, writeFormatFiles, type FormatFlags } from './format-flags.js';
import { addFlags, readFlag } from './flags/index.js';
import { verdictProblem } from './run-output.js';
import { argsWithPlanOf } from './plan/apply-plan.js';
import { checkStoredHistograms } from '../report/stored-histograms.js';
import { mergeShards, type ShardInput } from '../shard/merge.js';
import { configurationDifference } from '../shard/merge-warnings.js';
import { terminalText } from '../escape/terminal.js';

export async function mergeFromArgs(args: string[]): Promise<number> {
  const command = mergeCommand();
  command.parse(await argsWithPlanOf('merge', args, mergeCommand, [{ key: 'shards', many: true }]), { from: 'user' });
  const flags = command.opts<{ out: string } & FormatFlags>();
  const maxErrors = readFlag<number>(flags, '--max-errors') ?? 0;
  checkWritable(flags.out);
  refuseOverwritingAnInput(flags.out, command.args);
  const outputs = outputsFromFlags(flags, 'run', [
    { path: flags.out, flag: '--out' },
    ...command.args.map((path) => ({ path, flag: 'input' })),
  ]);
  const inputs = command.args.flatMap(readShards);
  checkSameConfiguration(inputs);
  const merged = await mergeShards(inputs);
  writeResultFile(flags.out, merged);
  process.stdout.write(renderStdout(outputs, merged));
  for (const warning of merged.merge?.warnings ?? []) process.stderr.write(`warning: ${terminalText(warning)}\n`);
  process.stderr.write(
    `merged ${merged.merge?.shards.filter((s) => s.status !== 'missing').length} of ${merged.merge?.shardCount} shards: ${terminalText(flags.out)}\n`,
  );
  const unwritten = writeFormatFiles(outputs, merged);
  if (unwritten > 0) return 1;
  // The same verdict as `run`'s: a shard's errors are the merged run's, held against --max-errors.
  const why = verdictProblem(merged, maxErrors);
  if (why === null) return 0;
  process.stderr.write(`exit 1: ${why}\n`);
  return 1;
}

function mergeCommand(): Command {
  const command = subcommand('wsbench merge').argument(
    '<shards...>',
    'shard result files, or logs with one result JSON line per shard',
  );
  addFlags(command, 'merge');
  return command;
}

/** A whole-file result, or every line of a log that is a wsbench result. */
function readShards(path: string): ShardInput[] {
  const text = readChecked(path, 'result').toString('utf8');
  const whole = parseOrNull(text);
  if (whole !== null) return [shardInput(whole, path)];
  const found = text.split('\n').flatMap((line, i) => {
    const trimmed = line.trim();
    if (!trimmed.startsWith('{') || !trimmed.includes('"wsbench"')) return [];
    const data = parseOrNull(trimmed);
    const source = `${path}:${i + 1}`;
    return data === null ? [] : [shardInput(data, source)];
  });
  if (found.length === 0)
    throw new UsageError(`${path} holds no wsbench result (neither a result file nor a log with result lines)`);
  return found;
}

function shardInput(data: unknown, source: string): ShardInput {
  const result = resultFromJson(data, source);
  checkStoredHistograms(result, source);
  return { source, result };
}

/** The merged file must not replace a shard it is made from: same file by any path, symlink or hard link. */
function refuseOverwritingAnInput(out: string, inputs: string[]): void {
  const target = identity(out);
  if (target === null) return;
  const input = inputs.find((path) => identity(path) === target);
  if (input !== undefined)
    throw new UsageError(`--out: ${out} is the input ${input}; write the merged result to another file`);
}

/** Device and inode of the file a path leads to (through symlinks); null when there is none. */
function identity(path: string): string | null {
  try {
    const stat = statSync(path);
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return null;
  }
}

/**
 * Shards of one run whose configurations differ are refused naming what differs,
 * which a pair of hashes does not say. Left to mergeShards: shards of other runs.
 */
function checkSameConfiguration(inputs: ShardInput[]): void {
  const [first, ...rest] = inputs;
  if (!first?.result.shard) return;
  for (const other of rest) {
    const shard = other.result.shard;
    if (!shard || shard.runId !== first.result.shard.runId || shard.configHash === first.result.shard.configHash)
      continue;
    const differences = configurationDifference(first.result, other.result);
    const said = differences.length
      ? `: ${differences.join('; ')}`
      : ` (configuration hash ${shard.configHash} vs ${first.result.shard.configHash}), but the files agree on what they record of it` +
        ' (scenario declarations, cells and parameters, servers, clients, targets, client processes, rounds, shard count)';
    throw new UsageError(`merge: ${other.source} was run with another configuration than ${first.source}${said}`);
  }
}

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
