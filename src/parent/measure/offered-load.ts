/**
 * Delivered against offered, for cells of the open model that offered one
 * rate: a server that keeps up delivers what it was offered (its replies per
 * second match the schedule); below that, messages queue somewhere (in the
 * server, the network, or a generator that fell behind), and latency climbs
 * without bound the longer the window. The latency-against-load chart and the
 * table mark those cells.
 */
import type { MetricInfo } from '../../shared/types/declaration-types.js';
import { isMeasured, type CellResult } from '../../shared/types/result-types.js';

/** Delivered below this share of the offered rate counts as falling short (5 %: beyond a window's edges and noise). */
export const DELIVERED_SHARE = 0.95;

/** The rate a scenario delivers at: its first primary-rate metric. */
export function deliveredMetric(metrics: Readonly<Record<string, MetricInfo>>): string | null {
  return Object.entries(metrics).find(([, info]) => info.role === 'primary-rate')?.[0] ?? null;
}

/** What the cell was offered and delivered, when it fell short; null when it kept up, offered no single rate, or failed. */
export function belowOffered(
  cell: CellResult,
  deliveredKey: string | null,
): { offeredPerSec: number; deliveredPerSec: number } | null {
  const offeredPerSec = cell.load?.offeredPerSec;
  // A failed cell's numbers are what it measured before it failed: its failure is the finding, not its rate.
  if (offeredPerSec === undefined || deliveredKey === null || !isMeasured(cell) || cell.status === 'failed')
    return null;
  const delivered = cell.metrics[deliveredKey];
  if (typeof delivered !== 'number') return null;
  return delivered < DELIVERED_SHARE * offeredPerSec ? { offeredPerSec, deliveredPerSec: delivered } : null;
}
