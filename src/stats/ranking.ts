/**
 * "What to pick": for one scenario and parameter set, the best server on a key
 * number, paired over the clients both servers ran with (the ratio of each
 * pair of cells that share a client, averaged on the log scale), and likewise
 * the best client over the servers; the stacks statistically tied with it (the
 * ratio's 95 % interval holds 1); and each significant difference as a ratio
 * with its interval. Cells of one run pair round by round when both were
 * repeated (src/stats/ratio.ts). Only cells that ended ok are ranked.
 *
 * The leader is the stack whose ratios against the others point its way most
 * often (each pairwise estimate a vote, ties broken by the mean log ratio):
 * with stacks that each met different partners (a socket.io server meets only
 * the socket.io client) there may be no single scale to sort them on.
 */
import type { MetricInfo } from '../declaration-types.js';
import { isMeasured, type CellResult, type MeasuredCell, type RatioInterval } from '../result-types.js';
import { isTie, logRatio, meanLogRatio, ratioInterval, type LogRatio, type Side } from './ratio.js';

/** A stack's difference from the leader: `ratio` is the stack's value over the leader's. */
export interface Difference {
  stack: string;
  ratio: RatioInterval;
  /** The partners (clients for a server, servers for a client) the ratio was averaged over. */
  across: string[];
}

export interface Pick {
  /** The metric ranked on, and which way is better. */
  metric: string;
  better: 'lower' | 'higher';
  /** What is ranked: servers (paired over clients) or clients (paired over servers). */
  role: 'server' | 'client';
  best: string;
  /** Stacks whose difference from the leader is within the noise (the interval holds 1). */
  tied: Difference[];
  /** Stacks significantly different from the leader (worse, unless the votes went round in a circle). */
  differs: Difference[];
  /** Stacks measured with no partner in common with the leader, or whose ratio has no interval. */
  unranked: Array<{ stack: string; why: string }>;
}

/** The picks of one parameter set: servers and clients on each key metric given; null where fewer than two stacks ran. */
export function picksOf(cells: ReadonlyArray<CellResult>, metrics: ReadonlyArray<[string, MetricInfo]>): Pick[] {
  const ok = cells.filter((c): c is MeasuredCell => c.status === 'ok' && isMeasured(c));
  return metrics.flatMap(([key, info]) =>
    (['server', 'client'] as const).flatMap((role) => {
      const pick = rank(ok, key, info.better === 'higher' ? 'higher' : 'lower', role);
      return pick ? [pick] : [];
    }),
  );
}

function rank(cells: MeasuredCell[], key: string, better: 'lower' | 'higher', role: 'server' | 'client'): Pick | null {
  const stackOf = (c: MeasuredCell): string => (role === 'server' ? c.server : c.client);
  const partnerOf = (c: MeasuredCell): string => (role === 'server' ? c.client : c.server);
  const valued = cells.filter((c) => typeof c.metrics[key] === 'number' && (c.metrics[key] as number) > 0);
  const stacks = [...new Set(valued.map(stackOf))];
  if (stacks.length < 2) return null;
  const cellAt = new Map(valued.map((c) => [`${stackOf(c)}\n${partnerOf(c)}`, c]));
  const side = (c: MeasuredCell): Side => ({
    value: c.metrics[key] as number,
    ...(c.intervals?.[key] ? { interval: c.intervals[key] } : {}),
    ...(c.rounds ? { rounds: c.rounds.map((r) => r.metrics?.[key]) } : {}),
  });
  /** ln(a / b) over the partners both met, with the partners; null when none had an interval. */
  const compare = (a: string, b: string): { log: LogRatio; across: string[] } | null => {
    const parts: LogRatio[] = [];
    const across: string[] = [];
    for (const partner of new Set(valued.map(partnerOf))) {
      const x = cellAt.get(`${a}\n${partner}`);
      const y = cellAt.get(`${b}\n${partner}`);
      const part = x && y ? logRatio(side(x), side(y), true) : null;
      if (part) {
        parts.push(part);
        across.push(partner);
      }
    }
    const log = meanLogRatio(parts);
    return log ? { log, across } : null;
  };
  // Sign so that a positive log always means "a is better than b".
  const sign = better === 'lower' ? -1 : 1;
  const score = new Map(stacks.map((s) => [s, { wins: 0, sum: 0 }]));
  for (const a of stacks) {
    for (const b of stacks) {
      if (a === b) continue;
      const pair = compare(a, b);
      if (!pair) continue;
      score.get(a)!.sum += sign * pair.log.log;
      if (sign * pair.log.log > 0) score.get(a)!.wins += 1;
    }
  }
  const best = [...stacks].sort(
    (a, b) => score.get(b)!.wins - score.get(a)!.wins || score.get(b)!.sum - score.get(a)!.sum,
  )[0]!;
  const pick: Pick = { metric: key, better, role, best, tied: [], differs: [], unranked: [] };
  for (const stack of stacks) {
    if (stack === best) continue;
    const pair = compare(stack, best);
    if (!pair) {
      const met = valued.some((c) => stackOf(c) === stack && cellAt.has(`${best}\n${partnerOf(c)}`));
      pick.unranked.push({
        stack,
        why: met
          ? 'no interval to compare with'
          : `no ${role === 'server' ? 'client' : 'server'} in common with ${best}`,
      });
      continue;
    }
    const difference = { stack, ratio: ratioInterval(pair.log), across: pair.across };
    (isTie(difference.ratio) ? pick.tied : pick.differs).push(difference);
  }
  // Closest first.
  pick.differs.sort((a, b) => Math.abs(Math.log(a.ratio.ratio)) - Math.abs(Math.log(b.ratio.ratio)));
  return pick;
}
