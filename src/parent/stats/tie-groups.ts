/**
 * Cells sorted best first and cut into groups that differ: each group starts
 * with the best cell not yet grouped (its leader), and takes every later cell
 * the one test of two-cells.ts does not tell from the leader (a tie, or the
 * paired and unpaired tests disagree: no difference is shown).
 * A chart colours each cell by its group leader's value, so cells tied with a
 * leader share its colour, and two colours differ only where the data show a
 * difference: a 15 % spread among tied cells is not drawn as a ranking.
 */
import type { Side } from './ratio.js';
import { twoCellTest } from './two-cells.js';

interface Grouped<T> {
  item: T;
  /** 0 for the group of the best cell, 1 for the next, ... */
  group: number;
  /** The value of the group's leader: what a chart colours the cell by. */
  leaderValue: number;
}

/** `sides` pair round by round when `paired` (cells of one run). Items without a value are left out. */
export function tieGroups<T>(
  items: ReadonlyArray<{ item: T; side: Side }>,
  better: 'lower' | 'higher',
  paired = true,
): Array<Grouped<T>> {
  const sorted = [...items]
    .filter((i) => i.side.value > 0)
    .sort((a, b) => (better === 'lower' ? a.side.value - b.side.value : b.side.value - a.side.value));
  const out: Array<Grouped<T>> = [];
  let leader: Side | null = null;
  let group = -1;
  for (const { item, side } of sorted) {
    const test = leader ? twoCellTest(side, leader, { paired }) : null;
    // No interval to tell it from the leader (and a cell is tied with itself): it starts a group only when it differs.
    if (leader === null || test?.outcome === 'differs') {
      leader = side;
      group += 1;
    }
    out.push({ item, group, leaderValue: leader.value });
  }
  return out;
}
