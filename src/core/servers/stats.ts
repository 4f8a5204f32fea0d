/**
 * A foreign server's own counters, when it offers them: `GET /wsbench/stats`
 * on its HTTP origin answers `{"counters": {"name": number, ...}}` (see
 * docs/protocols/README.md). wsbench reads them when the window opens and
 * after the clients finished; the difference is the cell's, so a long-running
 * target that never resets its counters still reports one cell at a time.
 */
import http from 'node:http';
import https from 'node:https';
import type { ClientTls } from '../../adapter-types.js';
import { nodeTlsOptions } from '../../clients/tls-trust.js';

export const STATS_PATH = '/wsbench/stats';
const STATS_TIMEOUT_MS = 3000;

export type StatsReading = { counters: Record<string, number> } | { missing: string };

/** `tls`: what to trust over https://, as the cell's clients do. */
export function readStats(httpOrigin: string, scenario: string, tls?: ClientTls): Promise<StatsReading> {
  const url = new URL(STATS_PATH, httpOrigin);
  url.searchParams.set('scenario', scenario);
  const secure = url.protocol === 'https:';
  return new Promise((resolve) => {
    const request = (secure ? https : http).get(url, { agent: false, timeout: STATS_TIMEOUT_MS, ...(secure ? nodeTlsOptions(tls) : {}) }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('error', () => resolve({ missing: `GET ${STATS_PATH} broke off` }));
      response.on('end', () => {
        if (response.statusCode !== 200) return resolve({ missing: `GET ${STATS_PATH} answered HTTP ${response.statusCode}` });
        resolve(parseStats(body));
      });
    });
    request.on('timeout', () => {
      request.destroy();
      resolve({ missing: `GET ${STATS_PATH} got no answer within ${STATS_TIMEOUT_MS / 1000}s` });
    });
    request.on('error', (error) => resolve({ missing: `GET ${STATS_PATH} failed: ${error.message.split('\n')[0]}` }));
  });
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
  for (const [name, count] of Object.entries(counters)) if (typeof count === 'number' && Number.isFinite(count)) kept[name] = count;
  return { counters: kept };
}

/** The window's counters: after minus before; a counter absent before started at 0. */
export function counterDifference(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(after).map(([name, value]) => [name, value - (before[name] ?? 0)]));
}
