/**
 * Two capacity results compared: how far each server's capacity moved. A
 * search knows a capacity only to within its bracket (the largest count that
 * held, up to the smallest that broke), so a capacity moved only when the two
 * brackets do not overlap; that is the noise the data shows. The steps' cells
 * are not compared: which counts a search measures depends on what it found.
 * The entries are comparisons like a run's cells, so the text, the Markdown
 * and the gate treat them alike: a capacity drop beyond the gate's threshold,
 * and a server that no longer got a capacity, fail it.
 */
import { UsageError } from '../../shared/types/errors.js';
import type { ServerCapacity } from '../../shared/types/capacity-types.js';
import type { CapacityResult, CellStatus } from '../../shared/types/result-types.js';
import {
  statusChange,
  type CellComparison,
  type Comparison,
  type MetricDelta,
  type UnmatchedCell,
  type Verdict,
} from './compare-types.js';

/** The capacity comparison of two capacity results; refuses two searches that asked different questions. */
export function compareCapacities(
  base: CapacityResult,
  next: CapacityResult,
): Pick<Comparison, 'cells' | 'missingInNext' | 'newInNext' | 'onlyInBase' | 'onlyInNext' | 'warnings'> {
  const question = (r: CapacityResult): string =>
    `${r.scenarios[0]?.name} ${r.capacity.settings.vary} within ${r.capacity.slo.text}`;
  if (question(base) !== question(next)) {
    throw new UsageError(
      `the two capacity searches asked different questions (base: ${question(base)}; new: ${question(next)}): their capacities do not compare`,
    );
  }
  const scenario = base.scenarios[0]?.name ?? 'capacity';
  const label = (s: ServerCapacity): string => `${scenario} capacity ${s.server} x ${s.client}`;
  const key = (s: ServerCapacity): string => s.server;
  const nextByServer = new Map(next.capacity.servers.map((s) => [key(s), s]));
  const baseServers = new Set(base.capacity.servers.map(key));
  const cells: CellComparison[] = [];
  for (const b of base.capacity.servers) {
    const n = nextByServer.get(key(b));
    if (!n) continue;
    cells.push({
      label: label(b),
      scenario,
      server: b.server,
      client: n.client,
      params: next.capacity.settings.params,
      baseStatus: statusOf(b),
      nextStatus: statusOf(n),
      nextReason: reasonOf(n),
      deltas: capacityDeltas(b, n, next.capacity.settings.vary),
    });
  }
  const unmatched = (s: ServerCapacity, params: CellComparison['params']): UnmatchedCell => ({
    label: label(s),
    scenario,
    server: s.server,
    client: s.client,
    params,
    status: statusOf(s),
    reason: reasonOf(s),
  });
  const missing = base.capacity.servers.filter((s) => !nextByServer.has(key(s)));
  const added = next.capacity.servers.filter((s) => !baseServers.has(key(s)));
  return {
    cells,
    missingInNext: missing.map((s) => unmatched(s, base.capacity.settings.params)),
    newInNext: added.map((s) => unmatched(s, next.capacity.settings.params)),
    onlyInBase: missing.map(label),
    onlyInNext: added.map(label),
    warnings: [
      "capacity results: each server's capacity is compared (it moved only when the two searches' brackets do not overlap); the steps' cells are not",
    ],
  };
}

/** A search that ran is `ok` here; one that could not run keeps its status; one never reached could not show its capacity: failed. */
function statusOf(server: ServerCapacity): CellStatus {
  if (server.status === 'not-reached') return 'failed';
  return server.status === 'measured' ? 'ok' : server.status;
}

/** The reason beside that status: a server never reached says so, since its status reads failed. */
function reasonOf(server: ServerCapacity): string | null {
  return server.status === 'not-reached' ? `not reached: ${server.reason}` : server.reason;
}

function capacityDeltas(b: ServerCapacity, n: ServerCapacity, vary: string): MetricDelta[] {
  if (b.status !== 'measured' && n.status !== 'measured') return [];
  // A search that no longer ran cannot show its capacity held: the gate fails on it.
  if (n.status !== 'measured') return [statusChange('regressed')];
  if (b.status !== 'measured') return [statusChange(b.status === 'skipped' ? 'n/a' : 'improved')];
  return [capacityDelta(b, n, vary)];
}

/** The capacity's change; verdict from the brackets [capacity, brokeAt), an open one (no break found) reaching up without end. */
function capacityDelta(b: ServerCapacity, n: ServerCapacity, vary: string): MetricDelta {
  const changePct = b.capacity === 0 ? null : ((n.capacity - b.capacity) / b.capacity) * 100;
  // Overlapping brackets: the two searches cannot tell the capacities apart.
  let verdict: Verdict = 'unchanged';
  if (n.brokeAt !== null && n.brokeAt <= b.capacity) verdict = 'regressed';
  else if (b.brokeAt !== null && n.capacity >= b.brokeAt) verdict = 'improved';
  const widths = [b, n].map((s) => (s.brokeAt === null ? null : s.brokeAt - s.capacity));
  const noise = widths.some((w) => w === null) ? null : Math.max(...(widths as number[]));
  return {
    key: 'capacity',
    metric: `capacity (${vary})`,
    role: 'capacity',
    base: b.capacity,
    next: n.capacity,
    changePct,
    noise,
    change: null,
    better: 'higher',
    verdict,
  };
}
