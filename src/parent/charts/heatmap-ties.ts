/**
 * What keeps a heatmap from colouring noise as difference: each square is
 * coloured by the value of its tie group's leader (src/parent/stats/tie-groups.ts),
 * so squares tied with one another share a colour, and the best square with
 * those tied with it is outlined. Squares are grouped per metric and variant;
 * a panel where a square has no interval is drawn by its values alone.
 */
import type { MeasuredCell } from '../../shared/types/result-types.js';
import { tieGroups } from '../stats/tie-groups.js';
import type { Side } from '../stats/ratio.js';

interface TiedSquare {
  metric: string;
  variant: string;
  value: number;
  /** The value the square is coloured by: its tie group leader's. */
  shade: number;
  /** True for the best square and every square tied with it. */
  best: boolean;
}

/** `squares` with their shades; `cellOf` finds the cell a square shows, `betterOf` which way its metric is better. */
export function shadeByTies<S extends { metric: string; variant: string; value: number }>(
  squares: S[],
  cellOf: (square: S) => MeasuredCell,
  betterOf: (metric: string) => 'lower' | 'higher' | 'none',
): Array<S & TiedSquare> {
  const panels = new Map<string, S[]>();
  for (const square of squares)
    panels.set(`${square.metric}\n${square.variant}`, [
      ...(panels.get(`${square.metric}\n${square.variant}`) ?? []),
      square,
    ]);
  const shaded = new Map<S, S & TiedSquare>();
  for (const group of panels.values()) {
    const better = betterOf(group[0]!.metric);
    const sides = group.map((square) => ({ item: square, side: sideOf(cellOf(square), square.metric) }));
    // Ties need every square's interval: a panel with a square that has none (a custom metric, an older
    // file) is coloured by its values as measured, with nothing outlined, rather than call it tied.
    if (better === 'none' || sides.some((s) => !s.side.interval)) {
      for (const square of group) shaded.set(square, { ...square, shade: square.value, best: false });
      continue;
    }
    for (const { item, group: index, leaderValue } of tieGroups(sides, better))
      shaded.set(item, { ...item, shade: leaderValue, best: index === 0 });
    // A value of 0 or below has no ratio to anything: it keeps its own colour.
    for (const square of group)
      if (!shaded.has(square)) shaded.set(square, { ...square, shade: square.value, best: false });
  }
  return squares.map((square) => shaded.get(square)!);
}

function sideOf(cell: MeasuredCell, key: string): Side {
  const interval = cell.intervals?.[key];
  return {
    value: cell.metrics[key] as number,
    ...(interval ? { interval } : {}),
    ...(cell.rounds ? { rounds: cell.rounds.map((r) => r.metrics?.[key]) } : {}),
  };
}
