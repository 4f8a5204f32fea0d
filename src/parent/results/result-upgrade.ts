/**
 * Older result files, turned into the current shape in memory so every
 * reporter reads one shape. Version 1 cells were flat bags of optional fields;
 * version 2 cells are a union by status, and each scenario carries its
 * declarations (parameters, metrics, table, charts). Version 3 adds the
 * capacity section (a capacity search used to write its own file, format
 * `wsbench-capacity`, its steps' cells in a second result file beside it, which
 * becomes a result with that section and no cells), the `errors` status, each
 * cell's fault and load-generator saturation, timer lateness, and the command
 * line: a version 2 file is a version 3 file that has none of them (its faults
 * were written as `ok` or `failed`, as they were).
 *
 * A version 1 file declares nothing: its scenarios list only table columns
 * `{ key, header }`. So the declarations are derived here from version 1's own
 * naming convention (`rttP99Ms`, `messagesPerSec`, `errors`). This is the only
 * place in wsbench allowed to read meaning from a metric's name, and only for
 * version 1 files: every reporter reads the declarations.
 */
import { STACK_PARAMETERS } from '../../shared/types/common-parameters.js';
import { cellIntervals } from '../stats/cell-intervals.js';
import { unstableRounds } from '../stats/unstable.js';
import type {
  ChartRequest,
  HistogramStat,
  MetricInfo,
  MetricSource,
  ParameterInfo,
  ParamValues,
} from '../../shared/types/declaration-types.js';
import type {
  CapacitySection,
  CapacitySettings,
  CapacityStep,
  ServerCapacity,
} from '../../shared/types/capacity-types.js';
import {
  SCHEMA_VERSION,
  type CapacityResult,
  type Environment,
  type BenchResult,
  type CellMeasurements,
  type CellResources,
  type CellResult,
  type LatencySummary,
  type RoundResult,
  type ScenarioInfo,
  type SizeSummary,
  isMeasured,
} from '../../shared/types/result-types.js';

const COMMON_DEFAULTS: ParamValues = Object.fromEntries(
  Object.entries(STACK_PARAMETERS).map(([name, spec]) => [name, spec.default]),
);

/** A version 1 scenario: a name and the table's columns. */
interface V1ScenarioInfo {
  name: string;
  description: string;
  columns: Array<{ key: string; header: string }>;
}

/** A version 1 cell: every field past the identity optional, whatever the status. */
export interface V1Cell {
  scenario: string;
  server: string;
  client: string;
  params: ParamValues;
  status: 'ok' | 'failed' | 'skipped';
  reason?: string;
  metrics?: Record<string, number | null>;
  measurements?: Partial<CellMeasurements> & Pick<CellMeasurements, 'histograms' | 'counters' | 'windowMs'>;
  resources?: CellResources;
  serverStackDrops?: number;
  notes?: string[];
  rounds?: RoundResult[];
  elapsedMs: number;
}

export interface V1Result extends Omit<BenchResult, 'schemaVersion' | 'repeat' | 'scenarios' | 'cells'> {
  schemaVersion: 1;
  repeat?: number;
  scenarios: V1ScenarioInfo[];
  cells: V1Cell[];
}

/** Says where a value came from, for sources a version 1 file cannot name. */
const UNDECLARED = 'computed by the scenario (version 1 file: no declaration)';

/** A version 1 result in the current shape (it has none of version 3's additions). */
export function upgradeV1(v1: V1Result): BenchResult {
  const { schemaVersion: _version, repeat, scenarios, cells, ...rest } = v1;
  return {
    ...rest,
    schemaVersion: SCHEMA_VERSION,
    repeat: repeat ?? 1,
    scenarios: scenarios.map((s) =>
      scenarioOf(
        s,
        cells.filter((c) => c.scenario === s.name),
      ),
    ),
    cells: cells.map((c) => cellOf(c, (repeat ?? 1) > 1)),
  };
}

/**
 * A version 2 file written before a common parameter existed (serverProcesses came after
 * deflate) ran with its default: its cells say so, so that `compare` matches them to new ones.
 */
export function withCommonDefaults(result: BenchResult): BenchResult {
  if (result.cells.every((c) => Object.keys(COMMON_DEFAULTS).every((name) => name in c.params))) return result;
  return { ...result, cells: result.cells.map((c) => ({ ...c, params: { ...COMMON_DEFAULTS, ...c.params } })) };
}

/**
 * A capacity search written before its steps carried the server's CPU demand: each step takes it from
 * the cell the file keeps for its count (the last run at that count), so that a verdict of "server CPU
 * saturated" prints the demand it was judged on. Steps without a cell (refused, or no demand read) get null.
 */
export function withStepDemand(result: BenchResult): BenchResult {
  const capacity = (result as CapacityResult).capacity;
  if (!capacity || capacity.servers.every((s) => s.steps.every((step) => step.serverCpuDemandPercent !== undefined)))
    return result;
  const vary = capacity.settings.vary;
  const demandOf = (server: string, client: string, count: number): number | null => {
    const cell = result.cells.find((c) => c.server === server && c.client === client && c.params[vary] === count);
    return cell && 'resources' in cell ? (cell.resources.server?.cpuDemandPercent?.mean ?? null) : null;
  };
  const servers = capacity.servers.map((s) => ({
    ...s,
    steps: s.steps.map((step) =>
      step.serverCpuDemandPercent !== undefined
        ? step
        : { ...step, serverCpuDemandPercent: demandOf(s.server, s.client, step.count) },
    ),
  }));
  return { ...result, capacity: { ...capacity, servers } } as CapacityResult;
}

export const CAPACITY_V1_FORMAT = 'wsbench-capacity';

/** The capacity file before version 3: the search alone, its steps' cells in `<name>-steps.json` beside it. */
export interface CapacityV1 {
  format: typeof CAPACITY_V1_FORMAT;
  version: 1;
  tool: BenchResult['tool'];
  startedAt: string;
  elapsedMs: number;
  interrupted: boolean;
  environment: Environment;
  scenario: ScenarioInfo;
  slo: CapacitySection['slo'];
  latencyMetric: string | null;
  settings: Omit<CapacitySettings, 'keepServer'>;
  servers: Array<Omit<ServerCapacity, 'serverPerStep' | 'steps'> & { steps: Array<Omit<CapacityStep, 'sloValues'>> }>;
}

/**
 * A capacity file of before version 3 as a result with no cells (they are in its steps file). It searched built-in
 * stacks only, each step on a fresh server; it kept the SLO's latency and errors per step, not every clause's value.
 */
export function upgradeCapacityV1(old: CapacityV1): CapacityResult {
  const { slo, latencyMetric } = old;
  const stepValue = (
    step: Omit<CapacityStep, 'sloValues'>,
    clause: CapacitySection['slo']['clauses'][number],
  ): number | null => {
    if (clause.kind === 'errors') return step.errors;
    return clause.kind === 'latency' && clause.metrics[0] === latencyMetric ? step.latencyMs : null;
  };
  const servers: ServerCapacity[] = old.servers.map((server) => ({
    ...server,
    serverPerStep: 'fresh',
    steps: server.steps.map((step) => ({ ...step, sloValues: slo.clauses.map((clause) => stepValue(step, clause)) })),
  }));
  return {
    schemaVersion: SCHEMA_VERSION,
    tool: old.tool,
    startedAt: old.startedAt,
    elapsedMs: old.elapsedMs,
    interrupted: old.interrupted,
    environment: old.environment,
    clientProcesses: Math.max(old.settings.clientProcesses, ...servers.map((s) => s.clientProcesses)),
    repeat: 1,
    scenarios: [old.scenario],
    cells: [],
    capacity: { slo, latencyMetric, settings: { ...old.settings, keepServer: false }, servers },
  };
}

function cellOf(cell: V1Cell, repeated: boolean): CellResult {
  // Version 1 runs predate the parameters wsbench adds to every scenario; they ran with their defaults.
  const params = { ...COMMON_DEFAULTS, ...cell.params };
  const identity = {
    scenario: cell.scenario,
    server: cell.server,
    client: cell.client,
    params,
    elapsedMs: cell.elapsedMs,
  };
  if (cell.status === 'skipped')
    return { ...identity, status: 'skipped', reason: cell.reason ?? 'skipped (no reason recorded)' };
  if (!cell.measurements) return { ...identity, status: 'failed', reason: cell.reason ?? 'nothing was measured' };
  const m = cell.measurements;
  const measured = {
    metrics: cell.metrics ?? {},
    missing: {},
    measurements: {
      histograms: m.histograms,
      latency: withSamples(m.latency ?? {}),
      sizes: withSamples(m.sizes ?? {}),
      counters: m.counters,
      serverHistograms: m.serverHistograms ?? {},
      serverLatency: withSamples(m.serverLatency ?? {}),
      serverCounters: m.serverCounters ?? {},
      windowMs: m.windowMs,
      ...(m.timeSeries ? { timeSeries: m.timeSeries } : {}),
    },
    resources: cell.resources ?? { server: null, clients: [] },
    stackDrops: cell.serverStackDrops ?? null,
    // Version 1 took each metric's median over the rounds; version 2 pools the rounds first.
    notes: [
      ...(cell.notes ?? []),
      ...(repeated && cell.rounds ? ['version 1 file: metrics are per-key medians of the rounds'] : []),
    ],
    ...(cell.rounds ? { rounds: cell.rounds } : {}),
  };
  if (cell.status === 'ok') return { ...identity, status: 'ok', ...measured };
  return { ...identity, status: 'failed', reason: cell.reason ?? 'failed (no reason recorded)', ...measured };
}

/** Version 1 kept summaries of empty histograms (count 0, every value 0); version 2 has none. */
function withSamples<T extends LatencySummary | SizeSummary>(summaries: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(summaries).filter(([, s]) => s.count > 0));
}

// ---------------------------------------------------------------- declarations from names

const STATS: Record<string, HistogramStat> = {
  P50: 'p50',
  P90: 'p90',
  P99: 'p99',
  P999: 'p999',
  Max: 'max',
  Mean: 'mean',
  Min: 'min',
  Stdev: 'stdev',
};
const STAT_WORDS: Record<HistogramStat, string> = {
  p50: 'p50',
  p90: 'p90',
  p99: 'p99',
  p999: 'p99.9',
  max: 'max',
  mean: 'avg',
  min: 'min',
  stdev: 'std',
  count: 'samples',
};
/** `<histogram><Stat>Ms`, e.g. rttP99Ms, wsDelayMaxMs. */
const HISTOGRAM_KEY = /^(.+?)(P50|P90|P99|P999|Max|Mean|Min|Stdev)Ms$/;
const ERROR_KEY = /errors|dropped|missing/i;

function scenarioOf(v1: V1ScenarioInfo, cells: V1Cell[]): ScenarioInfo {
  const columns = v1.columns;
  const keys = [...new Set([...columns.map((c) => c.key), ...cells.flatMap((c) => Object.keys(c.metrics ?? {}))])];
  const counters = new Set(cells.flatMap((c) => Object.keys(c.measurements?.counters ?? {})));
  const clientHistograms = new Set(cells.flatMap((c) => Object.keys(c.measurements?.histograms ?? {})));
  const primary = columns.map((c) => HISTOGRAM_KEY.exec(c.key)).find((m) => m !== null && m[2] === 'P50')?.[1] ?? null;
  const rate = keys.includes('messagesPerSec')
    ? 'messagesPerSec'
    : (keys.find((k) => /PerSec$/.test(k) && !/Bytes/i.test(k)) ?? null);
  const headers = new Map(columns.map((c) => [c.key, c.header]));
  const serverOnly = (name: string): boolean =>
    !clientHistograms.has(name) && cells.some((c) => c.measurements?.serverHistograms?.[name] !== undefined);

  const metricOf = (key: string): MetricInfo => {
    const header = headers.get(key);
    const histogram = HISTOGRAM_KEY.exec(key);
    if (histogram) {
      const [, name, word] = histogram as unknown as [string, string, string];
      const stat = STATS[word]!;
      const server = serverOnly(name);
      return {
        header: header ?? `${name} ${STAT_WORDS[stat]} ms`,
        unit: 'ms',
        better: 'lower',
        role: name === primary && (stat === 'p50' || stat === 'p99') ? 'primary-latency' : 'detail',
        source: { histogram: name, stat, ...(server ? { side: 'server' as const } : {}) },
      };
    }
    const counterSource = (counter: string, as: 'total' | 'rate'): MetricSource =>
      counters.has(counter) ? { counter, ...(as === 'rate' ? { as } : {}) } : { custom: UNDECLARED };
    if (key === rate) {
      const messages = key === 'messagesPerSec';
      const source = messages ? counterSource('received', 'rate') : { custom: UNDECLARED };
      return { header: header ?? key, unit: messages ? 'msg/s' : '/s', better: 'higher', role: 'primary-rate', source };
    }
    if (/PerSec$/.test(key)) {
      const unit = /^megabytes/i.test(key) ? 'MB/s' : /Bytes/i.test(key) ? 'bytes/s' : '/s';
      return { header: header ?? key, unit, better: 'higher', role: 'detail', source: { custom: UNDECLARED } };
    }
    if (ERROR_KEY.test(key))
      return {
        header: header ?? key,
        unit: 'count',
        better: 'lower',
        role: 'errors',
        source: counterSource(key, 'total'),
      };
    return {
      header: header ?? key,
      unit: /Ms$/.test(key) ? 'ms' : 'count',
      better: 'none',
      role: 'detail',
      source: counterSource(key, 'total'),
    };
  };

  const primaryRef =
    primary === null ? null : serverOnly(primary) ? { histogram: primary, side: 'server' as const } : primary;
  const charts: ChartRequest[] = [
    ...(primaryRef !== null ? [{ kind: 'percentiles' as const, histograms: [primaryRef] }] : []),
    { kind: 'resources' },
  ];
  return {
    name: v1.name,
    description: v1.description,
    parameters: parametersOf(cells),
    metrics: Object.fromEntries(keys.map((key) => [key, metricOf(key)])),
    table: columns.map((c) => c.key),
    charts,
  };
}

/** Version 1 recorded values only: kinds come from the values' types, defaults from the first cell. */
function parametersOf(cells: V1Cell[]): Record<string, ParameterInfo> {
  const parameters: Record<string, ParameterInfo> = {};
  for (const cell of cells) {
    for (const [name, value] of Object.entries(cell.params)) {
      if (parameters[name]) continue;
      const kind = typeof value === 'boolean' ? 'boolean' : typeof value === 'number' ? 'number' : 'string';
      parameters[name] = { kind, description: 'version 1 file: not declared', default: value };
    }
  }
  return parameters;
}

/**
 * Files written before cells carried the confidence interval of their key numbers (or merged from
 * shards, whose cells are pooled anew) get them here, from what the file holds: the rounds' values,
 * or the time series. Rounds of such a file have no interval of their own, so an unstable cell is
 * told by the spread of its rounds alone.
 */
export function withIntervals(result: BenchResult): BenchResult {
  if (result.cells.every((c) => !isMeasured(c) || c.intervals)) return result;
  const cells = result.cells.map((cell): CellResult => {
    if (!isMeasured(cell) || cell.intervals) return cell;
    const declared = result.scenarios.find((s) => s.name === cell.scenario)?.metrics ?? {};
    const timeSeries = cell.measurements.timeSeries;
    const { intervals, noInterval } = cellIntervals(declared, {
      metrics: cell.metrics,
      ...(cell.rounds ? { rounds: cell.rounds } : {}),
      ...(timeSeries ? { timeSeries } : {}),
    });
    const unstable = unstableRounds(declared, cell.rounds);
    return {
      ...cell,
      intervals,
      ...(Object.keys(noInterval).length > 0 ? { noInterval } : {}),
      ...(unstable ? { unstable } : {}),
    };
  });
  return { ...result, cells };
}
