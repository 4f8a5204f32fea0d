/**
 * Per-cell deltas between two result files (or two servers of one file), each
 * change with its confidence interval and the verdict it supports (improved,
 * regressed, unchanged or inconclusive: src/parent/stats/verdict.ts). Compares the
 * metrics each scenario declares with a comparing role, reading their values
 * from `cell.metrics` (the numbers the table shows), their intervals and rounds
 * from the cells (src/parent/stats/), and the run-to-run band of compare-noise.ts
 * where the data give no interval or only a single window's: which metrics and
 * their noise in cell-deltas.ts, each one's interval and verdict in
 * metric-delta.ts; here, the cells matched and what the files say beside them.
 * Pure functions; the CLI prints.
 */
import { DEFAULT_MARGIN_PCT } from '../stats/verdict.js';
import { CONFIDENCE_LEVEL, familyLevel } from '../stats/confidence.js';
import { isKeyMetric } from '../stats/cell-intervals.js';
import {
  isMeasured,
  type BenchResult,
  type CapacityResult,
  type CellResult,
  type MeasuredCell,
  type ScenarioInfo,
} from '../../shared/types/result-types.js';
import { cellNamer } from '../parameter-labels.js';
import { cellKey } from '../results/cell-key.js';
import type { CellComparison, Comparison, UnmatchedCell } from './compare-types.js';
import { compareCapacities } from './compare-capacity.js';
import { compareCell } from './cell-deltas.js';

export type { CellComparison, Comparison, MetricDelta, UnmatchedCell, Verdict } from './compare-types.js';
export { statusChange } from './compare-types.js';

/**
 * A side measured in one round of windows shorter than this gets a warning:
 * two identical back-to-back 2 s runs on a busy 2-core box differed by +118%
 * p50, far beyond what one window's histogram shows as its noise.
 */
const SHORT_WINDOW_MS = 10_000;

/**
 * compareResults()' options: the margin within which a change is no change, and whether the two sides' rounds pair up.
 */
export interface CompareOptions {
  /** A change smaller than this many percent is never regressed or improved; default DEFAULT_MARGIN_PCT. */
  marginPct?: number;
  /** The two sides are cells of one run whose rounds were interleaved: round r of each is paired with round r of the other. */
  pairedRounds?: boolean;
}

/** Cell by cell; two capacity results by each server's capacity (compare-capacity.ts). */
export function compareResults(base: BenchResult, next: BenchResult, options: CompareOptions = {}): Comparison {
  const marginPct = options.marginPct ?? DEFAULT_MARGIN_PCT;
  if (base.capacity && next.capacity) {
    return {
      ...compareCapacities(base as CapacityResult, next as CapacityResult),
      environmentNote: environmentNote(base, next),
      marginPct,
      intervalLevel: familyLevel(1),
      intervalTests: 0,
    };
  }
  const tests = intervalTests(base, next);
  // A file measured until decided states its numbers at its last look's share of the 95 %: so is each change.
  const judge = {
    marginPct,
    paired: options.pairedRounds === true,
    level: familyLevel(tests, Math.max(statedLevel(base), statedLevel(next))),
  };
  const nextByKey = new Map(next.cells.map((c) => [cellKey(c), c]));
  const baseKeys = new Set(base.cells.map(cellKey));
  const scenarioOf = (name: string): ScenarioInfo | undefined =>
    base.scenarios.find((s) => s.name === name) ?? next.scenarios.find((s) => s.name === name);
  const label = cellNamer([...base.cells, ...next.cells], (name) => scenarioOf(name)?.parameters);
  const cells: CellComparison[] = [];
  for (const b of base.cells) {
    const n = nextByKey.get(cellKey(b));
    if (!n) continue;
    cells.push({
      label: label(b),
      scenario: b.scenario,
      server: b.server,
      client: b.client,
      params: b.params,
      baseStatus: b.status,
      nextStatus: n.status,
      nextReason: reasonOf(n),
      deltas: compareCell(b, n, scenarioOf(b.scenario), judge),
    });
  }
  const unmatched = (c: CellResult): UnmatchedCell => ({
    label: label(c),
    scenario: c.scenario,
    server: c.server,
    client: c.client,
    params: c.params,
    status: c.status,
    reason: reasonOf(c),
  });
  const missing = base.cells.filter((c) => !nextByKey.has(cellKey(c)));
  const added = next.cells.filter((c) => !baseKeys.has(cellKey(c)));
  return {
    cells,
    onlyInBase: missing.map((c) => label(c) + statusSuffix(c)),
    onlyInNext: added.map((c) => label(c) + statusSuffix(c)),
    missingInNext: missing.map(unmatched),
    newInNext: added.map(unmatched),
    environmentNote: environmentNote(base, next),
    warnings: [
      shortWindowWarning('base', base),
      shortWindowWarning('new', next),
      ...unstableWarnings(base, next),
    ].filter((w): w is string => w !== null),
    marginPct,
    intervalLevel: judge.level,
    intervalTests: tests,
  };
}

/**
 * Two servers of one file as base and new (`compare FILE --servers base,new`): each cell of `base`
 * against the cell of `next` with the same client and parameters. Their rounds ran interleaved in
 * one run, so they pair round by round.
 */
export function compareServers(
  result: BenchResult,
  base: string,
  next: string,
  options: Omit<CompareOptions, 'pairedRounds'> = {},
): Comparison {
  const pair = `${base} -> ${next}`;
  const side = (server: string): BenchResult => ({
    ...result,
    cells: result.cells.filter((c) => c.server === server).map((c) => ({ ...c, server: pair })),
  });
  return { ...compareResults(side(base), side(next), { ...options, pairedRounds: true }), servers: { base, next } };
}

/**
 * How many changes a comparison judges on an interval: per cell both files measured, each primary
 * latency and rate with a direction and the server's CPU and RSS. Each is judged at
 * familyLevel(that many), so that identical code reads no regression anywhere at 95 %.
 */
function intervalTests(base: BenchResult, next: BenchResult): number {
  const nextKeys = new Set(next.cells.filter(isMeasured).map(cellKey));
  return base.cells
    .filter((c) => isMeasured(c) && nextKeys.has(cellKey(c)))
    .reduce((sum, cell) => {
      const metrics = Object.values(base.scenarios.find((s) => s.name === cell.scenario)?.metrics ?? {});
      return sum + metrics.filter(isKeyMetric).length + 2;
    }, 0);
}

/** The level a result states its intervals at: its last look's, for a run --until-decided. */
function statedLevel(result: BenchResult): number {
  return result.decision?.looks.at(-1)?.level ?? CONFIDENCE_LEVEL;
}

/** A cell's recorded reason when it did not end ok; null for an ok cell. */
function reasonOf(cell: CellResult): string | null {
  return cell.status !== 'ok' && 'reason' in cell && typeof cell.reason === 'string' ? cell.reason : null;
}

function statusSuffix(cell: CellResult): string {
  return cell.status === 'ok' ? '' : ` (${cell.status})`;
}

function environmentNote(base: BenchResult, next: BenchResult): string | null {
  const describe = (r: BenchResult): string =>
    `${r.environment.cpuModel} x${r.environment.cpuCores}, Node ${r.environment.node}`;
  return describe(base) === describe(next)
    ? null
    : `different machines or Node: base ${describe(base)}; new ${describe(next)}`;
}

/** Cells either file measured on a machine that changed speed between rounds. */
function unstableWarnings(base: BenchResult, next: BenchResult): string[] {
  return [['base', base] as const, ['new', next] as const].flatMap(([side, result]) => {
    const unstable = result.cells.filter((c) => isMeasured(c) && c.unstable);
    if (unstable.length === 0) return [];
    const first = unstable[0] as MeasuredCell;
    return [
      `${side}: ${unstable.length} of ${result.cells.filter(isMeasured).length} cells ${first.unstable!.replace(/^unstable: /, 'unstable (e.g. ')}${unstable.length > 0 ? ')' : ''}`,
    ];
  });
}

function shortWindowWarning(side: string, result: BenchResult): string | null {
  if ((result.repeat ?? 1) > 1) return null;
  const windows = result.cells.filter(isMeasured).map((c) => c.measurements.windowMs);
  if (windows.length === 0 || Math.max(...windows) >= SHORT_WINDOW_MS) return null;
  const seconds = Math.max(...windows) / 1000;
  return (
    `${side} measured each cell once, in windows of ${seconds.toFixed(1)} s or less: identical runs that short` +
    ' can differ beyond the noise shown; run with --repeat 3 (or longer windows) for a gate'
  );
}
