/**
 * What a merged result must say about its shards: load that was spread
 * unevenly, load generators that ran out of CPU (the figure is then theirs, not
 * the server's), and clocks too far apart for delays timed across hosts.
 */
import { isMeasured, type BenchResult, type ScenarioInfo } from '../../shared/types/result-types.js';
import { cellKey } from '../results/cell-key.js';
import { loadSaturationOf } from '../measure/saturation.js';
import { cellNamer, parametersText } from '../parameter-labels.js';
import type { ShardInfo } from '../../shared/types/shard-types.js';

/** Shards whose headline rates differ by more than this share of their mean are called imbalanced. */
const IMBALANCE_FRACTION = 0.2;
/**
 * Delays timed from a timestamp taken on another host are valid only while the
 * clocks agree to within this (offset plus half the probe's round trip).
 */
const ONE_WAY_BOUND_MS = 1;

export function shardWarnings(
  shards: Array<{ shard: ShardInfo; result: BenchResult }>,
  info: ScenarioInfo,
  missing: number[],
): string[] {
  const warnings: string[] = [];
  // Named as the table names them: `echo uws x ws payload=32B`, what varies judged over every shard's cells.
  const name = cellNamer(
    shards.flatMap((s) => s.result.cells),
    (scenario) => (scenario === info.name ? info.parameters : undefined),
  );
  if (missing.length)
    warnings.push(
      `shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${shards[0]!.shard.count} missing: the merge covers only the others`,
    );
  for (const { shard, result } of shards) {
    for (const cell of result.cells.filter(isMeasured)) {
      // The engine's one judgement of a load generator, made again from the shard's resources (older shards did not record it).
      const saturation = cell.loadSaturation ?? loadSaturationOf(cell.resources.clients);
      if (saturation) warnings.push(`shard ${shard.index}, ${name(cell)}: ${saturation.evidence}`);
    }
    // One-way delays are stamped with CLOCK_MONOTONIC (ctx.nowUs): its offset is the one that counts, where the shard measured it.
    const offset = shard.monotonicOffsetMs ?? shard.clockOffsetMs;
    if (offset !== null && Math.abs(offset) + (shard.clockRttMs ?? 0) / 2 > ONE_WAY_BOUND_MS) {
      warnings.push(
        `shard ${shard.index}: ${shard.monotonicOffsetMs != null ? 'monotonic ' : ''}clock ${offset.toFixed(3)} ms from shard 0 (±${((shard.clockRttMs ?? 0) / 2).toFixed(3)} ms): delays timed across hosts are off by more than ${ONE_WAY_BOUND_MS} ms; round trips stay valid`,
      );
    }
  }
  const rates = Object.entries(info.metrics)
    .filter(([, m]) => m.role === 'primary-rate')
    .map(([key]) => key);
  const cellsByKey = new Map(shards.flatMap((s) => s.result.cells.map((c) => [cellKey(c), c] as const)));
  for (const [key, named] of cellsByKey) {
    for (const rate of rates) {
      const values = shards.flatMap((s) => {
        const cell = s.result.cells.find((c) => cellKey(c) === key);
        const value = cell && isMeasured(cell) ? cell.metrics[rate] : null;
        return typeof value === 'number' ? [{ index: s.shard.index, value }] : [];
      });
      if (values.length < 2) continue;
      const mean = values.reduce((sum, v) => sum + v.value, 0) / values.length;
      const spread = Math.max(...values.map((v) => v.value)) - Math.min(...values.map((v) => v.value));
      if (mean > 0 && spread / mean > IMBALANCE_FRACTION) {
        const list = values.map((v) => `shard ${v.index} ${v.value.toPrecision(4)}`).join(', ');
        warnings.push(
          `${name(named)}: ${info.metrics[rate]!.header} differs between shards by ${((spread / mean) * 100).toFixed(0)}% of the mean (${list})`,
        );
      }
    }
  }
  return warnings;
}

/**
 * What two shard results record differently of the configuration their hash
 * covers (scenario, parameter sets, stacks, targets, processes, rounds, shard
 * count), `other` against `first`: `client processes 2 vs 1`. Empty when the
 * files record no difference.
 */
export function configurationDifference(first: BenchResult, other: BenchResult): string[] {
  const differences: string[] = [];
  const compare = (what: string, of: (r: BenchResult) => unknown): void => {
    const [a, b] = [of(other), of(first)].map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
    if (a !== b) differences.push(`${what} ${a} vs ${b}`);
  };
  const onlyIn = (what: string, of: (r: BenchResult) => string[]): void => {
    const [mine, theirs] = [new Set(of(other)), new Set(of(first))];
    const extra = [...mine].filter((v) => !theirs.has(v));
    const lacking = [...theirs].filter((v) => !mine.has(v));
    if (extra.length || lacking.length) {
      differences.push(
        `${what}: ${[...(extra.length ? [`${extra.join(', ')} only here`] : []), ...(lacking.length ? [`${lacking.join(', ')} only there`] : [])].join(', ')}`,
      );
    }
  };
  compare('scenario', (r) => r.scenarios.map((s) => s.name).join(', '));
  if (!differences.length) {
    for (const key of ['parameters', 'metrics', 'table', 'charts'] as const)
      compare(`scenario ${key}`, (r) => r.scenarios.map((s) => s[key]));
  }
  const scenario = first.scenarios[0];
  const keys = [...new Set([...first.cells, ...other.cells].flatMap((c) => Object.keys(c.params)))];
  onlyIn('parameter sets', (r) =>
    r.cells.map((c) => parametersText(c.params, keys, scenario?.parameters ?? {}) || '(none)'),
  );
  onlyIn('servers', (r) => r.cells.map((c) => c.server));
  onlyIn('clients', (r) => r.cells.map((c) => c.client));
  onlyIn('targets', (r) =>
    (r.environment.foreignServers ?? []).map((f) => `${f.name} ${f.kind === 'target' ? f.url : f.kind}`),
  );
  compare('client processes', (r) => r.clientProcesses);
  compare('rounds', (r) => r.repeat);
  compare('shard count', (r) => r.shard?.count);
  return differences;
}
