/**
 * The live state in the Prometheus text exposition format (0.0.4), with names
 * OpenMetrics accepts too: `wsbench_` prefix, base units (`_seconds`,
 * `_bytes`), `_total` on counters. Every series of a cell run carries its
 * scenario, server, client and parameters as labels (`round` with --repeat,
 * `shard` in a sharded run). Which family a client counter joins is read from
 * the scenario's declarations, never from the counter's name: see
 * counterFamilies(). docs/live.md lists every family.
 */
import type { MetricUnit } from '../declaration-types.js';
import type { ScenarioInfo } from '../result-types.js';
import { LATENCY_BUCKET_BOUNDS_SECONDS } from './latency-buckets.js';
import { LIVE_CELL_STATUSES, type LiveCellRun, type LiveState } from './state.js';
import { openMetricsLabelValue } from '../escape/openmetrics.js';

type Labels = Array<[string, string]>;

interface Family {
  name: string;
  type: 'counter' | 'gauge' | 'histogram';
  help: string;
  lines: string[];
}

/** The client counters' families, by what the scenario declares them to be. */
export type CounterFamily = 'wsbench_errors_total' | 'wsbench_bytes_total' | 'wsbench_messages_total' | 'wsbench_connections_opened_total' | 'wsbench_scenario_counter_total';

const BYTE_UNITS: readonly MetricUnit[] = ['bytes', 'KB', 'MB', 'bytes/s', 'MB/s'];
/** The engine's own count of WebSocket handshakes, in every client (child/handshakes.ts). */
const HANDSHAKES_COUNTER = 'connectionsOpened';
/** Label names wsbench sets itself: a parameter of the same name is exported as param_<name>. */
const RESERVED_LABELS = new Set(['scenario', 'server', 'client', 'round', 'shard', 'counter', 'histogram', 'role', 'process', 'state', 'le', 'quantile', 'job', 'instance']);

/**
 * Each client counter's family: a counter any `errors` metric reads is an error
 * count; one a metric reads in bytes (or bytes a second) counts bytes; one read
 * as msg/s counts messages; the engine's handshake count is connections opened;
 * any other keeps its scenario name under wsbench_scenario_counter_total.
 */
export function counterFamilies(scenario: ScenarioInfo): (counter: string) => CounterFamily {
  const declared = new Map<string, CounterFamily>();
  const rank: CounterFamily[] = ['wsbench_errors_total', 'wsbench_bytes_total', 'wsbench_messages_total'];
  for (const metric of Object.values(scenario.metrics)) {
    const source = metric.source;
    if (!('counter' in source) || (source.side ?? 'client') !== 'client') continue;
    const family = metric.role === 'errors' ? rank[0]! : BYTE_UNITS.includes(metric.unit) ? rank[1]! : metric.unit === 'msg/s' ? rank[2]! : null;
    const before = declared.get(source.counter);
    if (family && (!before || rank.indexOf(family) < rank.indexOf(before))) declared.set(source.counter, family);
  }
  return (counter) => declared.get(counter) ?? (counter === HANDSHAKES_COUNTER ? 'wsbench_connections_opened_total' : 'wsbench_scenario_counter_total');
}

const COUNTER_HELP: Record<CounterFamily, string> = {
  wsbench_errors_total: 'Client-counted errors (counters an errors-role metric of the scenario reads), summed over client processes.',
  wsbench_bytes_total: 'Client-counted bytes (counters the scenario declares in bytes), summed over client processes.',
  wsbench_messages_total: 'Client-counted messages (counters the scenario reads as msg/s), summed over client processes.',
  wsbench_connections_opened_total: 'WebSocket handshakes the clients completed, summed over client processes.',
  wsbench_scenario_counter_total: 'Every other client counter of the scenario, by its name in the result file, summed over client processes.',
};

/** The exposition text of the state as it stands. */
export function renderMetrics(state: LiveState): string {
  const families = new Map<string, Family>();
  const add = (name: string, type: Family['type'], help: string, line: string): void => {
    let family = families.get(name);
    if (!family) families.set(name, (family = { name, type, help, lines: [] }));
    family.lines.push(line);
  };
  const scenario = state.scenario;
  const shard: Labels = state.shard ? [['shard', String(state.shard.index)]] : [];
  if (state.shard) add('wsbench_shard_info', 'gauge', 'This shard of a sharded run: its index, the shard count and the run id (value 1).', sample('wsbench_shard_info', [...shard, ['shards', String(state.shard.count)], ['run_id', state.shard.runId]], 1));
  if (scenario) {
    for (const status of LIVE_CELL_STATUSES) {
      const count = state.cells.filter((c) => c.status === status).length;
      add('wsbench_cell_runs', 'gauge', 'Cell runs (cells x rounds) of the run by state.', sample('wsbench_cell_runs', [['scenario', scenario.name], ...shard, ['state', status]], count));
    }
    const familyOf = counterFamilies(scenario);
    for (const cell of state.cells) cellSeries(state, cell, cellLabels(scenario, cell, state.repeat, shard), familyOf, add);
  }
  const usage = process.cpuUsage();
  add('wsbench_orchestrator_cpu_seconds_total', 'counter', 'CPU time of the wsbench process itself (user + system).', sample('wsbench_orchestrator_cpu_seconds_total', shard, (usage.user + usage.system) / 1e6));
  add('wsbench_orchestrator_resident_memory_bytes', 'gauge', 'Resident memory of the wsbench process itself.', sample('wsbench_orchestrator_resident_memory_bytes', shard, process.memoryUsage.rss()));
  return [...families.values()].map((f) => [`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} ${f.type}`, ...f.lines].join('\n')).join('\n') + '\n';
}

function cellSeries(state: LiveState, cell: LiveCellRun, labels: Labels, familyOf: (counter: string) => CounterFamily, add: (name: string, type: Family['type'], help: string, line: string) => void): void {
  for (const status of LIVE_CELL_STATUSES) {
    add('wsbench_cell_state', 'gauge', 'State of each cell run: 1 for the state it is in, 0 for the others.', sample('wsbench_cell_state', [...labels, ['state', status]], cell.status === status ? 1 : 0));
  }
  if (cell.startedAtMs === null) return;
  add('wsbench_cell_window_elapsed_seconds', 'gauge', 'Window time the cell run\'s counters cover (every rate of the result divides by the window).', sample('wsbench_cell_window_elapsed_seconds', labels, cell.windowElapsedMs / 1000));
  for (const [counter, value] of Object.entries(cell.counters)) {
    const family = familyOf(counter);
    const own: Labels = family === 'wsbench_connections_opened_total' ? labels : [...labels, ['counter', counter]];
    add(family, 'counter', COUNTER_HELP[family], sample(family, own, value));
  }
  for (const [histogram, buckets] of state.latencyOf(cell)) {
    const own: Labels = [...labels, ['histogram', histogram]];
    const help = 'Latency samples of the window so far, per histogram the scenario records, merged over client processes (HDR, 3 significant digits).';
    LATENCY_BUCKET_BOUNDS_SECONDS.forEach((bound, i) => add('wsbench_latency_seconds', 'histogram', help, sample('wsbench_latency_seconds_bucket', [...own, ['le', String(bound)]], buckets.cumulativeCounts[i]!)));
    add('wsbench_latency_seconds', 'histogram', help, sample('wsbench_latency_seconds_bucket', [...own, ['le', '+Inf']], buckets.count));
    add('wsbench_latency_seconds', 'histogram', help, sample('wsbench_latency_seconds_sum', own, buckets.sumSeconds));
    add('wsbench_latency_seconds', 'histogram', help, sample('wsbench_latency_seconds_count', own, buckets.count));
  }
  for (const reading of cell.processes.values()) {
    const own: Labels = [...labels, ['role', reading.role], ['process', String(reading.process)]];
    add('wsbench_process_cpu_seconds_total', 'counter', 'CPU time of each process of the cell since it started, read from /proc (a server of several processes, or started by command with its tree, as one).', sample('wsbench_process_cpu_seconds_total', own, reading.cpuSeconds));
    add('wsbench_process_resident_memory_bytes', 'gauge', 'Resident memory of each process of the cell, read from /proc.', sample('wsbench_process_resident_memory_bytes', own, reading.rssBytes));
  }
}

/** scenario, server, client, each parameter (durations in ms, sizes in bytes, as in the result file), round with --repeat, shard. */
export function cellLabels(scenario: ScenarioInfo, cell: Pick<LiveCellRun, 'server' | 'client' | 'params' | 'round'>, repeat: number, shard: Labels): Labels {
  return [
    ['scenario', scenario.name],
    ['server', cell.server],
    ['client', cell.client],
    ...Object.entries(cell.params).map(([name, value]): [string, string] => [parameterLabel(name), String(value)]),
    ...(repeat > 1 ? [['round', String(cell.round)] as [string, string]] : []),
    ...shard,
  ];
}

/** A parameter's label name: itself when Prometheus allows it and wsbench does not use it, else param_<name>. */
export function parameterLabel(name: string): string {
  const clean = name.replace(/[^a-zA-Z0-9_]/g, '_');
  return RESERVED_LABELS.has(clean) || clean.startsWith('__') || /^[0-9]/.test(clean) || clean !== name ? `param_${clean}` : clean;
}

function sample(name: string, labels: Labels, value: number): string {
  const text = labels.length === 0 ? '' : `{${labels.map(([k, v]) => `${k}="${openMetricsLabelValue(v)}"`).join(',')}}`;
  return `${name}${text} ${formatValue(value)}`;
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  return String(value);
}
