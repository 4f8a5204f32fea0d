/**
 * `wsbench merge shard-*.json [--out merged.json]`: one result from the shards
 * of a run. An input may be a result file or a log holding results one JSON
 * line each (`kubectl logs` of the shard pods).
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { UsageError } from '../errors.js';
import { checkWritable, resultFromJson, writeResultFile } from '../result-file.js';
import { renderTable } from '../report/table.js';
import { mergeShards, type ShardInput } from '../shard/merge.js';

export async function mergeFromArgs(args: string[]): Promise<number> {
  const command = new Command('wsbench merge')
    .argument('<shards...>', 'shard result files, or logs with one result JSON line per shard')
    .option('--out <file>', 'merged result JSON file', 'wsbench-merged.json')
    .option('--json', 'print the merged result JSON on stdout instead of the table')
    .exitOverride()
    .configureOutput({ writeErr: () => undefined });
  command.parse(args, { from: 'user' });
  const flags = command.opts<{ out: string; json?: boolean }>();
  checkWritable(flags.out);
  const merged = await mergeShards(command.args.flatMap(readShards));
  writeResultFile(flags.out, merged);
  process.stdout.write(flags.json ? JSON.stringify(merged, null, 2) + '\n' : renderTable(merged) + '\n');
  for (const warning of merged.merge?.warnings ?? []) process.stderr.write(`warning: ${warning}\n`);
  process.stderr.write(`merged ${merged.merge?.shards.filter((s) => s.status !== 'missing').length} of ${merged.merge?.shardCount} shards: ${flags.out}\n`);
  return merged.cells.some((c) => c.status === 'failed') ? 1 : 0;
}

/** A whole-file result, or every line of a log that is a wsbench result. */
function readShards(path: string): ShardInput[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const whole = parseOrNull(text);
  if (whole !== null) return [{ source: path, result: resultFromJson(whole, path) }];
  const found = text.split('\n').flatMap((line, i) => {
    const trimmed = line.trim();
    if (!trimmed.startsWith('{') || !trimmed.includes('"wsbench"')) return [];
    const data = parseOrNull(trimmed);
    const source = `${path}:${i + 1}`;
    return data === null ? [] : [{ source, result: resultFromJson(data, source) }];
  });
  if (found.length === 0) throw new UsageError(`${path} holds no wsbench result (neither a result file nor a log with result lines)`);
  return found;
}

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
