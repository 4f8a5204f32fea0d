/**
 * What the reader must know before reading a number, said above the table:
 * how a run --until-decided stopped, and whether the machine was busier than
 * the answers can bear (its load average, the control's two identical cells
 * apart beyond their intervals, cells whose rounds disagree), with what to do.
 * Not at the end of 60 lines: first.
 */
import { isMeasured, type BenchResult } from '../../../shared/types/result-types.js';
import { controlDisagrees } from '../../stats/control.js';
import { undecided } from '../../stats/decisions.js';
import { levelPercent } from '../interval-text.js';

/** The lines above the tables; none for a run on a quiet machine that was not run until decided. */
export function summaryFirstLines(result: BenchResult): string[] {
  return [...decisionLines(result), ...machineLines(result)];
}

/** `until decided (budget 3m): 3 looks, after 3, 8 and 12 rounds; ...`. */
function decisionLines(result: BenchResult): string[] {
  const decision = result.decision;
  const last = decision?.looks.at(-1);
  if (!decision || !last) return [];
  const rounds = decision.looks.map((l) => l.rounds);
  const after = rounds.length === 1 ? `${rounds[0]}` : `${rounds.slice(0, -1).join(', ')} and ${rounds.at(-1)}`;
  const looks = `${decision.looks.length} look${decision.looks.length === 1 ? '' : 's'}, after ${after} rounds`;
  const open = last.undecided.length;
  const stopped =
    decision.stopped === 'decided'
      ? `every ranking and verdict decided (${last.asked})`
      : decision.stopped === 'interrupted'
        ? `interrupted, with ${open} of ${last.asked} undecided`
        : `the budget held no more rounds, with ${open} of ${last.asked} undecided (they say so below)`;
  return [
    `until decided (budget ${durationText(decision.budgetMs)}): ${looks}; stopped: ${stopped}. Every interval below is the last look's, at ${levelPercent(last.level)}: the 95 % shared out over the looks, so that what they decide holds at 95 % (docs/reading-results.md)`,
  ];
}

/**
 * `machine: busier than these answers can bear: ...` and what to do, when the machine was busy (its load,
 * the control, unstable rounds, starved load generators) and some answer is left undecided for it (or the
 * control shows noise beyond the intervals, which no answer bears).
 */
function machineLines(result: BenchResult): string[] {
  const evidence: string[] = [];
  const load = result.machineLoad;
  if (load && Math.max(load.atStart, load.atEnd) >= load.cores)
    evidence.push(
      `load average ${load.atStart.toFixed(1)} as the run started and ${load.atEnd.toFixed(1)} as it ended, on ${load.cores} core${load.cores === 1 ? '' : 's'}`,
    );
  const off = result.control ? controlDisagrees(result.control) : [];
  if (result.control && off.length > 0) {
    const metrics = result.scenarios[0]?.metrics ?? {};
    const apart = Math.max(...off.map((k) => Math.abs(Math.log(result.control!.ratios[k]!.ratio))));
    evidence.push(
      `the control's two identical cells read ${((Math.exp(apart) - 1) * 100).toFixed(0)}% apart on ${off.map((k) => metrics[k]?.header ?? k).join(', ')}, beyond their intervals`,
    );
  }
  const measured = result.cells.filter(isMeasured);
  const unstable = measured.filter((c) => c.unstable).length;
  if (unstable > 0)
    evidence.push(
      `${unstable} of ${measured.length} cells unstable (their rounds far apart: the machine changed speed)`,
    );
  const starved = measured.filter((c) => (c.loadSaturation?.starved.length ?? 0) > 0).length;
  if (starved > 0)
    evidence.push(
      `the load generator of ${starved} of ${measured.length} cells starved of CPU (other processes held the cores)`,
    );
  const open = undecided(result);
  // A busy machine whose answers were all decided anyway bore it: nothing to put before them.
  if (evidence.length === 0 || (open.undecided.length === 0 && off.length === 0)) return [];
  const left =
    open.undecided.length > 0
      ? `; ${open.undecided.length} of ${open.asked} rankings and verdicts are not decided (each says so below)`
      : '';
  const rounds = result.decision
    ? 'give --until-decided a longer --budget'
    : 'let rounds decide (--until-decided --budget 3m)';
  return [
    `machine: busier than these answers can bear: ${evidence.join('; ')}${left}`,
    `what to do: quiet the machine (stop other work) and run again; or ${rounds}; or give each cell more time (--duration 5s)`,
  ];
}

function durationText(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
