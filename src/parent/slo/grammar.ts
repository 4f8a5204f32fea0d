/**
 * Service-level objectives, such as "p99<500ms,errors=0": what a capacity search
 * holds its steps to, and what `run --slo` judges every cell against (verdict.ts).
 * A clause names what the scenario DECLARES, never a metric's name: `p99` is the
 * p99 statistic of the scenario's primary-latency histogram, `errors` the sum of
 * every metric whose role is `errors`, and any declared metric key may stand
 * alone (`delayP999Ms<1000`). Parsed once against the scenario's declarations;
 * every problem is a ParameterError
 * about `slo` (the command line says --slo).
 */
import { ParameterError } from '../../shared/types/errors.js';
import type { HistogramSource, HistogramStat, MetricInfo, MetricUnit } from '../../shared/types/declaration-types.js';
import type { ScenarioInfo } from '../../shared/types/result-types.js';
import type { SloClause, SloKind, SloOperator } from '../../shared/types/capacity-types.js';
import { parseDurationMs } from '../../shared/parsing/units.js';

export interface Slo {
  /** The clauses as written, joined by ", ". */
  text: string;
  clauses: SloClause[];
}

/** Statistics a clause may name directly; each reads the primary-latency histogram. */
const STAT_WORDS: Record<string, HistogramStat> = {
  p50: 'p50',
  p90: 'p90',
  p99: 'p99',
  p999: 'p999',
  mean: 'mean',
  max: 'max',
  min: 'min',
};
const CLAUSE = /^([A-Za-z][A-Za-z0-9]*)(<=|>=|<|>|=)(-?\d+(?:\.\d+)?)([A-Za-z%/]*)$/;
const EXAMPLE = 'p99<500ms or errors=0';

/** Parses `text` against a scenario's declarations; throws a ParameterError about `slo`. */
export function parseSlo(text: string, scenario: ScenarioInfo): Slo {
  const parts = text.split(',').map((part) => part.replace(/\s+/g, ''));
  if (parts.every((part) => part === ''))
    throw new ParameterError('slo', `give at least one clause, such as ${EXAMPLE}`);
  if (parts.some((part) => part === '')) throw new ParameterError('slo', `an empty clause in "${text}"`);
  const clauses = parts.map((part) => parseClause(part, scenario));
  return { text: clauses.map((c) => c.text).join(', '), clauses };
}

function parseClause(text: string, scenario: ScenarioInfo): SloClause {
  const match = CLAUSE.exec(text);
  if (!match)
    throw new ParameterError(
      'slo',
      `"${text}" is not a clause such as ${EXAMPLE} (a name, one of < <= = >= >, a number with an optional unit)`,
    );
  const [, name, operator, number, unitText] = match as unknown as [string, string, SloOperator, string, string];
  const target = resolveName(name, scenario);
  const limit = readLimit(text, target.label, Number(number), unitText, target.unit);
  if (!clauseHoldsForSome(operator, limit))
    throw new ParameterError(
      'slo',
      `"${text}": no cell can keep it (${target.label} is never below 0), so every cell would fail`,
    );
  return { text, operator, limit, ...target };
}

/**
 * Whether a value of 0 or more can keep the bound: every quantity a clause names (a latency, a count of errors, a
 * rate, a size, a share) is one. A clause no value keeps would fail every cell, whatever was measured.
 */
function clauseHoldsForSome(operator: SloOperator, limit: number): boolean {
  return operator === '<' ? limit > 0 : operator === '<=' || operator === '=' ? limit >= 0 : true;
}

type Target = Pick<SloClause, 'kind' | 'metrics' | 'unit' | 'label'>;

function resolveName(name: string, scenario: ScenarioInfo): Target {
  const metrics = Object.entries(scenario.metrics);
  if (name === 'errors') {
    const keys = metrics.filter(([, m]) => m.role === 'errors').map(([key]) => key);
    if (keys.length === 0)
      throw new ParameterError(
        'slo',
        `${scenario.name} declares no metric with the errors role, so "errors" means nothing here`,
      );
    return { kind: 'errors', metrics: keys, unit: 'count', label: 'errors' };
  }
  const stat = STAT_WORDS[name];
  if (stat) return latencyStat(name, stat, scenario);
  const declared = scenario.metrics[name];
  if (declared) return { kind: kindOf(declared), metrics: [name], unit: declared.unit, label: name };
  const words = [...Object.keys(STAT_WORDS), 'errors'].join(', ');
  throw new ParameterError(
    'slo',
    `unknown metric "${name}": use ${words}, or a metric key ${scenario.name} declares (wsbench list --json shows them)`,
  );
}

/** The metric holding `stat` of the primary-latency histogram: a primary-latency one first, else any on that histogram. */
function latencyStat(word: string, stat: HistogramStat, scenario: ScenarioInfo): Target {
  const metrics = Object.entries(scenario.metrics);
  const histograms = [
    ...new Set(
      metrics.filter(([, m]) => m.role === 'primary-latency' && isHistogram(m)).map(([, m]) => histogramOf(m)),
    ),
  ];
  if (histograms.length === 0)
    throw new ParameterError(
      'slo',
      `${scenario.name} declares no primary-latency histogram, so "${word}" means nothing here; name a metric key instead`,
    );
  const candidates = metrics.filter(
    ([, m]) => isHistogram(m) && histograms.includes(histogramOf(m)) && (m.source as HistogramSource).stat === stat,
  );
  const primary = candidates.filter(([, m]) => m.role === 'primary-latency');
  const chosen = primary.length > 0 ? primary : candidates;
  if (chosen.length === 0) {
    throw new ParameterError(
      'slo',
      `${scenario.name} declares no ${word} of its primary latency (histogram ${histograms.join(', ')}); name a metric key instead`,
    );
  }
  if (chosen.length > 1) {
    throw new ParameterError(
      'slo',
      `"${word}" is ambiguous in ${scenario.name} (${chosen.map(([key]) => key).join(', ')}); name one of those metric keys instead`,
    );
  }
  const [key, info] = chosen[0]!;
  return { kind: 'latency', metrics: [key], unit: info.unit, label: word };
}

const isHistogram = (m: MetricInfo): boolean => 'histogram' in m.source;
const histogramOf = (m: MetricInfo): string => {
  const source = m.source as HistogramSource;
  return `${source.side ?? 'client'}:${source.histogram}`;
};

function kindOf(info: MetricInfo): SloKind {
  if (info.role === 'errors') return 'errors';
  return (info.unit === 'ms' || info.unit === 'us') && isHistogram(info) ? 'latency' : 'metric';
}

/** The bound in the metric's unit; durations may carry their own unit, other units only their own. */
function readLimit(clause: string, label: string, value: number, unitText: string, unit: MetricUnit): number {
  if (unit === 'ms' || unit === 'us') {
    if (unitText === '') return value;
    const ms = parseDurationMs(`${value}${unitText}`);
    if (ms === null || value < 0)
      throw new ParameterError('slo', `"${clause}": ${label} is a duration; write its bound as 500ms, 2s or 750us`);
    return unit === 'ms' ? ms : ms * 1000;
  }
  if (unitText === '' || unitText === unit) return value;
  throw new ParameterError(
    'slo',
    `"${clause}": ${label} is in ${unit}; write the bound as a plain number${unit === 'count' ? '' : ` or with ${unit}`}`,
  );
}

// ---------------------------------------------------------------- checking

interface ClauseOutcome {
  clause: SloClause;
  /** The value compared (a sum for `errors`); null when the cell does not have it. */
  value: number | null;
  held: boolean;
  /** Why it failed, for people: "p99 812 ms > 500 ms", "errors not measured: ...". */
  why: string | null;
}

/** Checks one cell's metrics against every clause; a value the cell lacks fails its clause. */
export function checkSlo(
  slo: Slo,
  metrics: Readonly<Record<string, number | null>>,
  missing: Readonly<Record<string, string>> = {},
): ClauseOutcome[] {
  return slo.clauses.map((clause) => {
    const values = clause.metrics
      .map((key) => metrics[key])
      .filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
    if (values.length === 0) {
      const reason = clause.metrics.map((key) => missing[key]).find((r) => r !== undefined) ?? 'not in the cell';
      return { clause, value: null, held: false, why: `${clause.label} not measured: ${reason}` };
    }
    const value = values.reduce((a, b) => a + b, 0);
    const held = clauseHolds(clause, value);
    const unit = clause.unit === 'count' ? '' : ` ${clause.unit}`;
    return {
      clause,
      value,
      held,
      why: held ? null : `${clause.label} ${round(value)}${unit} not ${clause.operator} ${clause.limit}${unit}`,
    };
  });
}

/** True when `value` keeps the clause's bound. */
export function clauseHolds(clause: Pick<SloClause, 'operator' | 'limit'>, value: number): boolean {
  const { operator, limit } = clause;
  switch (operator) {
    case '<':
      return value < limit;
    case '<=':
      return value <= limit;
    case '=':
      return value === limit;
    case '>=':
      return value >= limit;
    case '>':
      return value > limit;
  }
}

function round(value: number): number {
  return Math.abs(value) >= 100 ? Math.round(value) : Math.round(value * 100) / 100;
}
