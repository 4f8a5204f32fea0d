/**
 * What a result leaves undecided: each ranking of "what to pick" (src/parent/stats/
 * pick-sets.ts) whose leader is not told apart from every other stack, and each
 * `--slo` verdict that is inconclusive. `run --until-decided` adds rounds while
 * any is; the summary above the table says how many the noise left open.
 */
import { isMeasured, type BenchResult } from '../../shared/types/result-types.js';
import { pickSets } from './pick-sets.js';
import { isDecided, type Pick } from './ranking.js';

interface Undecided {
  /** The rankings and verdicts asked for. */
  asked: number;
  /** Those not decided, in words ("echo servers on p99 ms: not decided between uws, ws"). */
  undecided: string[];
}

export function undecided(result: BenchResult): Undecided {
  const open: string[] = [];
  let asked = 0;
  for (const scenario of result.scenarios) {
    const cells = result.cells.filter((c) => c.scenario === scenario.name);
    for (const { variant, picks } of pickSets(scenario, cells)) {
      for (const pick of picks) {
        asked += 1;
        if (isDecided(pick)) continue;
        const header = scenario.metrics[pick.metric]?.header ?? pick.metric;
        open.push(`${scenario.name}${variant ? ` ${variant}` : ''} ${openText(pick, header)}`);
      }
    }
  }
  for (const cell of result.cells) {
    if (!isMeasured(cell) || !cell.slo) continue;
    asked += 1;
    if (cell.slo.verdict === 'inconclusive') open.push(`slo ${cell.server} x ${cell.client}: inconclusive`);
  }
  return { asked, undecided: open };
}

function openText(pick: Pick, header: string): string {
  const what = `${pick.role}s on ${header}`;
  if (pick.best === null) return `${what}: nothing ranked (no interval)`;
  const between = [pick.best, ...[...pick.split, ...pick.cannotTell].map((d) => d.stack)];
  return `${what}: not decided between ${between.join(', ')}`;
}
