/**
 * A foreign server's own counters, when it offers them: `GET /wsbench/stats`
 * on its HTTP origin answers `{"counters": {"name": number, ...}}` (see
 * docs/protocols/README.md). wsbench reads them when the window opens and
 * after the clients finished; the difference is the cell's, so a long-running
 * target that never resets its counters still reports one cell at a time.
 */
import { httpRead, HttpReadError } from './http-read.js';
import type { ClientTls } from '../../shared/types/adapter-types.js';

export const STATS_PATH = '/wsbench/stats';
/** The whole read, connecting and every byte of the answer, within this long. */
export const STATS_TIMEOUT_MS = 3000;

/** `absent`: the server has no stats route (it answered another status): the usual case, not a fault of the route. */
export type StatsReading = { counters: Record<string, number> } | { missing: string; absent?: true };

/** `tls`: what to trust over https://, as the cell's clients do. */
export async function readStats(
  httpOrigin: string,
  scenario: string,
  signal?: AbortSignal,
  tls?: ClientTls,
): Promise<StatsReading> {
  const url = new URL(STATS_PATH, httpOrigin);
  url.searchParams.set('scenario', scenario);
  try {
    const answer = await httpRead(url, {
      deadlineMs: STATS_TIMEOUT_MS,
      ...(signal ? { signal } : {}),
      ...(tls ? { tls } : {}),
    });
    if (answer.status !== 200) return { missing: `GET ${STATS_PATH} answered HTTP ${answer.status}`, absent: true };
    return parseStats(answer.body);
  } catch (error) {
    if (!(error instanceof HttpReadError)) throw error;
    if (error.kind === 'deadline')
      return { missing: `GET ${STATS_PATH} gave no complete answer within ${STATS_TIMEOUT_MS / 1000}s` };
    if (error.kind === 'aborted') return { missing: `GET ${STATS_PATH} was interrupted` };
    return { missing: `GET ${STATS_PATH} failed: ${error.message}` };
  }
}

/** Keeps the finite numbers of `counters`; anything else makes the answer unusable. */
export function parseStats(body: string): StatsReading {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { missing: `GET ${STATS_PATH} did not answer JSON` };
  }
  const counters = (value as { counters?: unknown } | null)?.counters;
  if (typeof counters !== 'object' || counters === null || Array.isArray(counters)) {
    return { missing: `GET ${STATS_PATH} answered without a "counters" object` };
  }
  const kept: Record<string, number> = {};
  for (const [name, count] of Object.entries(counters))
    if (typeof count === 'number' && Number.isFinite(count)) kept[name] = count;
  return { counters: kept };
}

/** The window's counters: after minus before; a counter absent before started at 0. */
export function counterDifference(
  before: Record<string, number>,
  after: Record<string, number>,
): Record<string, number> {
  return Object.fromEntries(Object.entries(after).map(([name, value]) => [name, value - (before[name] ?? 0)]));
}
