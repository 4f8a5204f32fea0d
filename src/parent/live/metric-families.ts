/**
 * The live state as Prometheus metric families: names with the `wsbench_`
 * prefix, base units (`_seconds`, `_bytes`), `_total` on counters, snake_case
 * label names (names and labels pass `promtool check metrics`). Every series of
 * a cell run carries its scenario, server, client and parameters as labels
 * (`round` with --repeat, `shard` in a sharded run). Which family a client
 * counter joins is read from the scenario's declarations, never from the
 * counter's name: see counterFamilies(). One model, two encodings: the text
 * format (openmetrics.ts) and protobuf (prometheus-protobuf.ts).
 * docs/live.md lists every family.
 */
import { declaredStages } from '../../shared/parsing/stages.js';
import type { MetricUnit } from '../../shared/types/declaration-types.js';
import type { ScenarioInfo } from '../../shared/types/result-types.js';
import type { LatencyBuckets } from './latency-buckets.js';
import { LIVE_CELL_STATUSES, type LiveCellRun, type LiveState } from './state.js';

export type Labels = Array<[string, string]>;

export type MetricFamily =
  | { name: string; type: 'counter' | 'gauge'; help: string; samples: Array<{ labels: Labels; value: number }> }
  | { name: string; type: 'histogram'; help: string; samples: Array<{ labels: Labels; histogram: LatencyBuckets }> };

/** The client counters' families, by what the scenario declares them to be. */
type CounterFamily =
  | 'wsbench_errors_total'
  | 'wsbench_bytes_total'
  | 'wsbench_messages_total'
  | 'wsbench_connections_opened_total'
  | 'wsbench_scenario_counts_total';

const BYTE_UNITS: readonly MetricUnit[] = ['bytes', 'KB', 'MB', 'bytes/s', 'MB/s'];
const COUNT_UNITS: readonly MetricUnit[] = ['count', 'msg/s', '/s'];
/** The engine's own count of WebSocket handshakes, in every client (child/handshakes.ts). */
const HANDSHAKES_COUNTER = 'connectionsOpened';
/** Label names wsbench sets itself: a parameter of the same name is exported as param_<name>. */
const RESERVED_LABELS = new Set([
  'scenario',
  'server',
  'client',
  'round',
  'shard',
  'counter',
  'histogram',
  'role',
  'process',
  'state',
  'stage',
  'stage_target',
  'le',
  'quantile',
  'job',
  'instance',
]);

/**
 * Each client counter's family: a counter any `errors` metric reads is an error
 * count; one a metric reads in bytes (or bytes a second) counts bytes; one read
 * as msg/s counts messages; the engine's handshake count is connections opened;
 * any other keeps its scenario name under wsbench_scenario_counts_total.
 */
function counterFamilies(scenario: ScenarioInfo): (counter: string) => CounterFamily {
  const declared = new Map<string, CounterFamily>();
  const rank: CounterFamily[] = ['wsbench_errors_total', 'wsbench_bytes_total', 'wsbench_messages_total'];
  for (const metric of Object.values(scenario.metrics)) {
    const source = metric.source;
    if (!('counter' in source) || (source.side ?? 'client') !== 'client') continue;
    const family =
      metric.role === 'errors'
        ? rank[0]!
        : BYTE_UNITS.includes(metric.unit)
          ? rank[1]!
          : metric.unit === 'msg/s'
            ? rank[2]!
            : null;
    const before = declared.get(source.counter);
    if (family && (!before || rank.indexOf(family) < rank.indexOf(before))) declared.set(source.counter, family);
  }
  return (counter) =>
    declared.get(counter) ??
    (counter === HANDSHAKES_COUNTER ? 'wsbench_connections_opened_total' : 'wsbench_scenario_counts_total');
}

const COUNTER_HELP: Record<CounterFamily, string> = {
  wsbench_errors_total:
    'Client-counted errors (counters an errors-role metric of the scenario reads), summed over client processes.',
  wsbench_bytes_total: 'Client-counted bytes (counters the scenario declares in bytes), summed over client processes.',
  wsbench_messages_total:
    'Client-counted messages (counters the scenario reads as msg/s), summed over client processes.',
  wsbench_connections_opened_total: 'WebSocket handshakes the clients completed, summed over client processes.',
  wsbench_scenario_counts_total:
    'Every other client counter of the scenario, by its name in the result file, summed over client processes.',
};

/** What every counter family says of how its series meet the result's table. */
const COUNTER_SCOPE =
  'Each series is one counter as the result file holds it (cells[].measurements.counters); a column that reads a counter as a rate divides it by wsbench_cell_window_elapsed_seconds.';

/**
 * A family's help: what it holds, and which of the scenario's table columns no
 * series of it equals, with the scenario's own words for why (columns it
 * computes from several counters, such as firehose's rx msgs, which adds the
 * backlog read after the window to the received counter).
 */
function counterHelp(scenario: ScenarioInfo, family: CounterFamily): string {
  const computed = scenario.table.flatMap((key) => {
    const metric = scenario.metrics[key];
    const source = metric?.source;
    if (
      !metric ||
      !source ||
      !('custom' in source) ||
      !computedColumnFamilies(metric.role, metric.unit).includes(family)
    )
      return [];
    return [`${metric.header} (${source.custom})`];
  });
  const differ =
    computed.length === 0
      ? ''
      : ` Table columns the scenario computes itself, which no one series equals: ${computed.join('; ')}.`;
  return `${COUNTER_HELP[family]} ${COUNTER_SCOPE}${differ}`;
}

/** The families a computed column of this role and unit reads like. */
function computedColumnFamilies(role: string, unit: MetricUnit): CounterFamily[] {
  if (role === 'errors') return ['wsbench_errors_total'];
  if (BYTE_UNITS.includes(unit)) return ['wsbench_bytes_total'];
  if (COUNT_UNITS.includes(unit)) return ['wsbench_messages_total', 'wsbench_scenario_counts_total'];
  return [];
}

const LATENCY_HELP =
  'Latency samples of the window so far, per histogram the scenario records, merged over client processes. ' +
  'Classic buckets at powers of 2^(1/8) from 2^-20 s to 2^6 s; scraped as protobuf it is also a native histogram of schema 3 with the same bounds. ' +
  "histogram_quantile of either reads within 10 % of the result file's HDR percentiles from 1 us to 60 s.";

/** Every family of the state as it stands, in a stable order. */
export function metricFamilies(state: LiveState): MetricFamily[] {
  const families = new Map<string, MetricFamily>();
  const add = (name: string, type: 'counter' | 'gauge', help: string, labels: Labels, value: number): void => {
    let family = families.get(name);
    if (!family) families.set(name, (family = { name, type, help, samples: [] }));
    if (family.type !== 'histogram') family.samples.push({ labels, value });
  };
  const addHistogram = (name: string, help: string, labels: Labels, histogram: LatencyBuckets): void => {
    let family = families.get(name);
    if (!family) families.set(name, (family = { name, type: 'histogram', help, samples: [] }));
    if (family.type === 'histogram') family.samples.push({ labels, histogram });
  };
  const scenario = state.scenario;
  const shard: Labels = state.shard ? [['shard', String(state.shard.index)]] : [];
  if (state.shard)
    add(
      'wsbench_shard_info',
      'gauge',
      'This shard of a sharded run: its index, the shard count and the run id (value 1).',
      [...shard, ['shards', String(state.shard.count)], ['run_id', state.shard.runId]],
      1,
    );
  if (scenario) {
    for (const status of LIVE_CELL_STATUSES) {
      const count = state.cells.filter((c) => c.status === status).length;
      add(
        'wsbench_cell_runs',
        'gauge',
        'Cell runs (cells x rounds) of the run by state.',
        [['scenario', scenario.name], ...shard, ['state', status]],
        count,
      );
    }
    const familyOf = counterFamilies(scenario);
    for (const cell of state.cells) {
      const labels = cellLabels(scenario, cell, state.repeat, shard);
      for (const status of LIVE_CELL_STATUSES)
        add(
          'wsbench_cell_state',
          'gauge',
          'State of each cell run: 1 for the state it is in, 0 for the others.',
          [...labels, ['state', status]],
          cell.status === status ? 1 : 0,
        );
      if (cell.startedAtMs === null) continue;
      add(
        'wsbench_cell_window_elapsed_seconds',
        'gauge',
        "Window time the cell run's counters cover (every rate of the result divides by the window).",
        labels,
        cell.windowElapsedMs / 1000,
      );
      // A cell run in stages: the stage it is in, as a label of its own (counters keep theirs, so rates stay whole).
      const stages = declaredStages(scenario.parameters, cell.params);
      if (cell.stage !== null && stages[cell.stage])
        add(
          'wsbench_cell_stage',
          'gauge',
          'The stage a cell run in stages is in (1-based, with where it takes the load), value 1; its counters and latency are labelled by cell only.',
          [...labels, ['stage', String(cell.stage + 1)], ['stage_target', String(stages[cell.stage]!.target)]],
          1,
        );
      for (const [counter, value] of Object.entries(cell.counters)) {
        const family = familyOf(counter);
        add(
          family,
          'counter',
          counterHelp(scenario, family),
          family === 'wsbench_connections_opened_total' ? labels : [...labels, ['counter', counter]],
          value,
        );
      }
      for (const [histogram, buckets] of state.latencyOf(cell))
        addHistogram('wsbench_latency_seconds', LATENCY_HELP, [...labels, ['histogram', histogram]], buckets);
      processSeries(cell, labels, add);
    }
  }
  const usage = process.cpuUsage();
  add(
    'wsbench_orchestrator_cpu_seconds_total',
    'counter',
    'CPU time of the wsbench process itself (user + system).',
    shard,
    (usage.user + usage.system) / 1e6,
  );
  add(
    'wsbench_orchestrator_resident_memory_bytes',
    'gauge',
    'Resident memory of the wsbench process itself.',
    shard,
    process.memoryUsage.rss(),
  );
  return [...families.values()];
}

function processSeries(
  cell: LiveCellRun,
  labels: Labels,
  add: (name: string, type: 'counter' | 'gauge', help: string, labels: Labels, value: number) => void,
): void {
  for (const reading of cell.processes.values()) {
    const own: Labels = [...labels, ['role', reading.role], ['process', String(reading.process)]];
    add(
      'wsbench_process_cpu_seconds_total',
      'counter',
      "CPU time of each process of the cell since it started, read from /proc (a server of several processes, or started by command with its tree, as one). The result's CPU % is its mean over the window; irate() gives the CPU of the last scrape interval.",
      own,
      reading.cpuSeconds,
    );
    add(
      'wsbench_process_resident_memory_bytes',
      'gauge',
      'Resident memory of each process of the cell, read from /proc.',
      own,
      reading.rssBytes,
    );
  }
}

/** scenario, server, client, each parameter (durations in ms, sizes in bytes, as in the result file), round with --repeat, shard. */
function cellLabels(
  scenario: ScenarioInfo,
  cell: Pick<LiveCellRun, 'server' | 'client' | 'params' | 'round'>,
  repeat: number,
  shard: Labels,
): Labels {
  const taken = new Set(['scenario', 'server', 'client']);
  const parameters = Object.entries(cell.params).map(([name, value]): [string, string] => {
    let label = parameterLabel(name);
    // Two parameter names that read the same in snake_case (payloadSize, payload_size) keep apart.
    while (taken.has(label)) label = `param_${label}`;
    taken.add(label);
    return [label, String(value)];
  });
  return [
    ['scenario', scenario.name],
    ['server', cell.server],
    ['client', cell.client],
    ...parameters,
    ...(repeat > 1 ? [['round', String(cell.round)] as [string, string]] : []),
    ...shard,
  ];
}

/**
 * A parameter's label name: itself in snake_case (serverProcesses is
 * server_processes); param_<name> when wsbench uses the name for a label of its
 * own or Prometheus does not allow it.
 */
function parameterLabel(name: string): string {
  const snake = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  const clean = snake.replace(/[^a-z0-9_]/g, '_');
  return RESERVED_LABELS.has(clean) || clean.startsWith('__') || /^[0-9]/.test(clean) || clean !== snake
    ? `param_${clean}`
    : clean;
}
