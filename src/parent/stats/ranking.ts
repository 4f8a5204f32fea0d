/**
 * "What to pick": for one scenario and parameter set, the best server on a key
 * number, paired over the clients both servers ran with (the ratio of each
 * pair of cells that share a client, averaged on the log scale), and likewise
 * the best client over the servers. Each other stack against the leader is the
 * one test of two-cells.ts (pooled ratio; paired by round where the cells ran
 * in one run's rounds, with the unpaired test beside it), and says one of:
 *
 * - differs: every test excludes "no difference";
 * - the same: a tie whose whole interval lies within the margin;
 * - cannot tell: a tie whose interval reaches beyond it;
 * - split: the paired and the unpaired tests disagree.
 *
 * A leader is called lowest or highest only when every other ranked stack
 * differs from it. With nothing to compare (no intervals), nothing is ranked.
 * Only cells that ended ok are ranked.
 *
 * The leader is the stack whose ratios against the others point its way most
 * often (each pairwise estimate a vote, ties broken by the mean log ratio):
 * with stacks that each met different partners (a socket.io server meets only
 * the socket.io client) there may be no single scale to sort them on.
 */
import type { MetricInfo } from '../../shared/types/declaration-types.js';
import { isMeasured, type CellResult, type MeasuredCell, type RatioInterval } from '../../shared/types/result-types.js';
import type { Side } from './ratio.js';
import { judgeTwoCells, meanTwoCellParts, twoCellParts, type TwoCellParts, type TwoCellTest } from './two-cells.js';
import { CONFIDENCE_LEVEL } from './confidence.js';
import { DEFAULT_MARGIN_PCT } from './verdict.js';

/** How a stack compares with the leader. */
type Standing = 'differs' | 'same' | 'cannot tell' | 'split';

/** A stack's difference from the leader: `ratio` is the stack's value over the leader's. */
export interface Difference {
  stack: string;
  /** The pooled ratio with the design's interval (as `test.ratio`). */
  ratio: RatioInterval;
  test: TwoCellTest;
  standing: Standing;
  /** The partners (clients for a server, servers for a client) the ratio was averaged over. */
  across: string[];
}

export interface Pick {
  /** The metric ranked on, and which way is better. */
  metric: string;
  better: 'lower' | 'higher';
  /** What is ranked: servers (paired over clients) or clients (paired over servers). */
  role: 'server' | 'client';
  /** The leader; null when no two stacks could be compared (no intervals): nothing is ranked. */
  best: string | null;
  /** Stacks significantly different from the leader (worse, unless the votes went round in a circle). */
  differs: Difference[];
  /** Stacks tied with the leader within the margin: the same. */
  same: Difference[];
  /** Stacks tied with the leader, the interval reaching beyond the margin: the data cannot tell. */
  cannotTell: Difference[];
  /** Stacks the paired and the unpaired tests disagree on. */
  split: Difference[];
  /** Stacks measured with no partner in common with the leader, or whose ratio has no interval. */
  unranked: Array<{ stack: string; why: string }>;
  /** The level of every interval, and the margin a tie is "the same" within, in percent. */
  level: number;
  marginPct: number;
}

interface RankOptions {
  /** Default CONFIDENCE_LEVEL; `run --until-decided` states its picks at its last look's share of it. */
  level?: number;
  /** Default DEFAULT_MARGIN_PCT. */
  marginPct?: number;
}

/** Why a stack has no ratio to the leader because neither has an interval. */
export const NO_INTERVAL = 'no interval to compare with';

/** The picks of one parameter set: servers and clients on each key metric given; none where fewer than two stacks ran. */
export function picksOf(
  cells: ReadonlyArray<CellResult>,
  metrics: ReadonlyArray<[string, MetricInfo]>,
  options: RankOptions = {},
): Pick[] {
  const ok = cells.filter((c): c is MeasuredCell => c.status === 'ok' && isMeasured(c));
  const settings = { level: options.level ?? CONFIDENCE_LEVEL, marginPct: options.marginPct ?? DEFAULT_MARGIN_PCT };
  return metrics.flatMap(([key, info]) =>
    (['server', 'client'] as const).flatMap((role) => {
      const pick = rank(ok, key, info.better === 'higher' ? 'higher' : 'lower', role, settings);
      return pick ? [pick] : [];
    }),
  );
}

/** True when the pick needs no more data: a leader, and every other ranked stack differs from it or is the same. */
export function isDecided(pick: Pick): boolean {
  return pick.best !== null && pick.cannotTell.length === 0 && pick.split.length === 0;
}

/** The side of a cell's `key` as the tests read it: the pooled value, its interval, its rounds. */
export function sideOf(c: MeasuredCell, key: string): Side {
  return {
    value: c.metrics[key] as number,
    ...(c.intervals?.[key] ? { interval: c.intervals[key] } : {}),
    ...(c.rounds ? { rounds: c.rounds.map((r) => r.metrics?.[key]) } : {}),
  };
}

function rank(
  cells: MeasuredCell[],
  key: string,
  better: 'lower' | 'higher',
  role: 'server' | 'client',
  settings: { level: number; marginPct: number },
): Pick | null {
  const stackOf = (c: MeasuredCell): string => (role === 'server' ? c.server : c.client);
  const partnerOf = (c: MeasuredCell): string => (role === 'server' ? c.client : c.server);
  const valued = cells.filter((c) => typeof c.metrics[key] === 'number' && (c.metrics[key] as number) > 0);
  const stacks = [...new Set(valued.map(stackOf))];
  if (stacks.length < 2) return null;
  const cellAt = new Map(valued.map((c) => [`${stackOf(c)}\n${partnerOf(c)}`, c]));
  /** a against b over the partners both met, with the partners; null when none had an interval. */
  const compare = (a: string, b: string): { parts: TwoCellParts; across: string[] } | null => {
    const parts: TwoCellParts[] = [];
    const across: string[] = [];
    for (const partner of new Set(valued.map(partnerOf))) {
      const x = cellAt.get(`${a}\n${partner}`);
      const y = cellAt.get(`${b}\n${partner}`);
      const part = x && y ? twoCellParts(sideOf(x, key), sideOf(y, key), true) : null;
      if (part) {
        parts.push(part);
        across.push(partner);
      }
    }
    const mean = meanTwoCellParts(parts);
    return mean ? { parts: mean, across } : null;
  };
  // Sign so that a positive log always means "a is better than b".
  const sign = better === 'lower' ? -1 : 1;
  const score = new Map(stacks.map((s) => [s, { wins: 0, sum: 0, compared: 0 }]));
  for (const a of stacks) {
    for (const b of stacks) {
      if (a === b) continue;
      const pair = compare(a, b);
      if (!pair) continue;
      const entry = score.get(a)!;
      entry.compared += 1;
      entry.sum += sign * pair.parts.design.log;
      if (sign * pair.parts.design.log > 0) entry.wins += 1;
    }
  }
  const pick: Pick = {
    metric: key,
    better,
    role,
    best: null,
    differs: [],
    same: [],
    cannotTell: [],
    split: [],
    unranked: [],
    ...settings,
  };
  // A stack compared with none is never the leader: a first value read is no evidence.
  const candidates = stacks.filter((s) => score.get(s)!.compared > 0);
  if (candidates.length === 0) {
    pick.unranked = stacks.map((stack) => ({ stack, why: NO_INTERVAL }));
    return pick;
  }
  const best = candidates.sort(
    (a, b) => score.get(b)!.wins - score.get(a)!.wins || score.get(b)!.sum - score.get(a)!.sum,
  )[0]!;
  pick.best = best;
  for (const stack of stacks) {
    if (stack === best) continue;
    const pair = compare(stack, best);
    if (!pair) {
      const met = valued.some((c) => stackOf(c) === stack && cellAt.has(`${best}\n${partnerOf(c)}`));
      pick.unranked.push({
        stack,
        why: met ? NO_INTERVAL : `no ${role === 'server' ? 'client' : 'server'} in common with ${best}`,
      });
      continue;
    }
    const test = judgeTwoCells(pair.parts, settings.level);
    const standing = standingOf(test, settings.marginPct);
    const difference: Difference = { stack, ratio: test.ratio, test, standing, across: pair.across };
    ({ differs: pick.differs, same: pick.same, 'cannot tell': pick.cannotTell, split: pick.split })[standing].push(
      difference,
    );
  }
  // Closest first.
  pick.differs.sort((a, b) => Math.abs(Math.log(a.ratio.ratio)) - Math.abs(Math.log(b.ratio.ratio)));
  return pick;
}

/** A tie is "the same" when the design's interval lies wholly within ±margin (as compare's `unchanged`), else the data cannot tell. */
function standingOf(test: TwoCellTest, marginPct: number): Standing {
  if (test.outcome === 'split') return 'split';
  if (test.outcome === 'differs') return 'differs';
  const within = (r: RatioInterval): boolean => (r.low - 1) * 100 >= -marginPct && (r.high - 1) * 100 <= marginPct;
  return within(test.ratio) ? 'same' : 'cannot tell';
}
