/**
 * `wsbench merge`: shard results of one run become one result. Shards of
 * different runs, configurations, tool versions or histogram settings are
 * refused; a missing or failed shard is named, never silently dropped; what
 * each shard measured alone is kept beside the merge, with warnings where the
 * figure may be the load generators' limit rather than the server's.
 */
import { UsageError } from '../../shared/types/errors.js';
import { builtInScenarios, loadScenario } from '../../child/scenario-loader.js';
import { cellKey } from '../results/cell-key.js';
import { isMeasured, type BenchResult, type CellResult } from '../../shared/types/result-types.js';
import type { AnyScenario } from '../../shared/types/scenario-types.js';
import { mergeCell } from './merge-cells.js';
import { shardWarnings } from './merge-warnings.js';
import type { ShardInfo, ShardSummary } from '../../shared/types/shard-types.js';

/** One shard's result for mergeShards(), with where it came from, for messages. */
export interface ShardInput {
  /** Where it came from, for messages: a file, or a file and line. */
  source: string;
  result: BenchResult;
}

/** Merges the results of a sharded run's shards into one result, histograms merged exactly (`wsbench merge`). */
export async function mergeShards(inputs: ShardInput[]): Promise<BenchResult> {
  const shards = checkShards(inputs);
  const first = shards[0]!;
  const info = first.result.scenarios[0];
  if (!info) throw new UsageError(`${first.source} has no scenario`);
  const scenario = await scenarioCode(info.name);
  const count = first.shard.count;
  const present = new Set(shards.map((s) => s.shard.index));
  const missingShards = Array.from({ length: count }, (_, i) => i).filter((i) => !present.has(i));

  const keys = [...new Set(shards.flatMap((s) => s.result.cells.map(cellKey)))];
  const cells = keys.map((key) => {
    const parts = shards.flatMap((s) => {
      const cell = s.result.cells.find((c) => cellKey(c) === key);
      return cell ? [{ shard: s.shard.index, cell, clockOffsetMs: s.shard.clockOffsetMs }] : [];
    });
    const lacking = [
      ...missingShards,
      ...shards.filter((s) => !parts.some((p) => p.shard === s.shard.index)).map((s) => s.shard.index),
    ];
    return mergeCell(
      parts,
      lacking.sort((a, b) => a - b),
      info,
      scenario,
    );
  });
  const summaries: ShardSummary[] = [
    ...shards.map((s) => summary(s.shard, s.result)),
    ...missingShards.map(
      (index): ShardSummary => ({
        index,
        status: 'missing',
        reason: 'no result for this shard',
        cells: [],
        clientCpuMaxPercent: null,
        clockOffsetMs: null,
      }),
    ),
  ].sort((a, b) => a.index - b.index);

  const { shard: _shard, ...base } = first.result;
  return {
    ...base,
    startedAt: shards.map((s) => s.result.startedAt).sort()[0]!,
    elapsedMs: Math.max(...shards.map((s) => s.result.elapsedMs)),
    interrupted: shards.some((s) => s.result.interrupted),
    clientProcesses: shards.reduce((sum, s) => sum + s.result.clientProcesses, 0),
    cells,
    merge: {
      runId: first.shard.runId,
      shardCount: count,
      shards: summaries,
      warnings: shardWarnings(
        shards.map((s) => ({ shard: s.shard, result: s.result })),
        info,
        missingShards,
      ),
    },
  };
}

interface CheckedShard extends ShardInput {
  shard: ShardInfo;
}

/** Every input is a shard of the same run, configuration, tool and histogram settings, each index once. */
function checkShards(inputs: ShardInput[]): CheckedShard[] {
  if (inputs.length === 0) throw new UsageError('merge: no shard results given');
  const shards = inputs.map((input): CheckedShard => {
    if (!input.result.shard) throw new UsageError(`${input.source} is not a shard result (run with --shard i/N)`);
    return { ...input, shard: input.result.shard };
  });
  const first = shards[0]!;
  const same: Array<[string, (s: CheckedShard) => string]> = [
    ['run id', (s) => s.shard.runId],
    ['configuration', (s) => s.shard.configHash],
    ['tool version', (s) => s.result.tool.version],
    ['histogram settings', (s) => JSON.stringify(s.shard.histogram)],
    ['shard count', (s) => String(s.shard.count)],
  ];
  for (const [what, of] of same) {
    const other = shards.find((s) => of(s) !== of(first));
    if (other)
      throw new UsageError(
        `merge: ${other.source} has another ${what} than ${first.source} (${of(other)} vs ${of(first)})`,
      );
  }
  const seen = new Map<number, string>();
  for (const s of shards) {
    const earlier = seen.get(s.shard.index);
    if (earlier) throw new UsageError(`merge: shard ${s.shard.index} appears twice (${earlier} and ${s.source})`);
    seen.set(s.shard.index, s.source);
  }
  return shards.sort((a, b) => a.shard.index - b.shard.index);
}

function summary(shard: ShardInfo, result: BenchResult): ShardSummary {
  const failed = result.cells.find((c) => c.status === 'failed');
  const cpus = result.cells.filter(isMeasured).flatMap((c) => c.resources.clients.map((r) => r.cpuPercent.mean));
  return {
    index: shard.index,
    status: failed ? 'failed' : 'ok',
    ...(failed && 'reason' in failed ? { reason: failed.reason } : {}),
    cells: result.cells.map((c: CellResult) => ({
      key: cellKey(c),
      status: c.status,
      metrics: isMeasured(c) ? c.metrics : {},
    })),
    clientCpuMaxPercent: cpus.length ? Math.max(...cpus) : null,
    clockOffsetMs: shard.clockOffsetMs,
  };
}

/** The scenario's own code, for metrics it computes itself: built-in scenarios load by name. */
async function scenarioCode(name: string): Promise<AnyScenario | null> {
  if (!builtInScenarios().includes(name)) return null;
  return (await loadScenario(name)).scenario;
}
