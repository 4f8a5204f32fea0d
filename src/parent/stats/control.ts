/**
 * `run --control`: the machine's own noise, measured. One pair runs as two
 * cells, the first and the last of every round, measured exactly as the rest;
 * nothing differs between them but when they ran. How far the second reads
 * from the first (each key number's ratio with its 95 % interval, paired round
 * by round, around the ratio of their pooled values: two-cells.ts) is how far
 * two identical cells read apart on this machine. When that interval excludes
 * 1, the machine moved more than the intervals allow,
 * and differences of that size between other cells are not to be trusted.
 */
import type { MetricInfo } from '../../shared/types/declaration-types.js';
import {
  isMeasured,
  type CellResult,
  type ControlSection,
  type MeasuredCell,
  type RatioInterval,
} from '../../shared/types/result-types.js';
import { isKeyMetric } from './cell-intervals.js';
import { CONFIDENCE_LEVEL } from './confidence.js';
import { isTie, type Side } from './ratio.js';
import { twoCellTest } from './two-cells.js';

export function controlSection(
  metrics: Readonly<Record<string, MetricInfo>>,
  first: CellResult,
  second: CellResult,
  level = CONFIDENCE_LEVEL,
): ControlSection {
  const ratios: Record<string, RatioInterval | null> = {};
  for (const [key, info] of Object.entries(metrics)) {
    if (!isKeyMetric(info)) continue;
    const a = isMeasured(first) ? sideOf(first, key) : null;
    const b = isMeasured(second) ? sideOf(second, key) : null;
    ratios[key] = a && b ? (twoCellTest(b, a, { paired: true, level })?.ratio ?? null) : null;
  }
  return { server: first.server, client: first.client, cells: [first, second], ratios };
}

/** The key numbers whose two identical cells differ beyond their interval: the machine's noise exceeds what the intervals say. */
export function controlDisagrees(control: ControlSection): string[] {
  return Object.entries(control.ratios).flatMap(([key, ratio]) => (ratio && !isTie(ratio) ? [key] : []));
}

function sideOf(cell: MeasuredCell, key: string): Side | null {
  const value = cell.metrics[key];
  if (typeof value !== 'number') return null;
  const interval = cell.intervals?.[key];
  return {
    value,
    ...(interval ? { interval } : {}),
    ...(cell.rounds ? { rounds: cell.rounds.map((r) => r.metrics?.[key]) } : {}),
  };
}
