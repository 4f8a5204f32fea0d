/**
 * `run --slo 'p99<10ms,errors=0'`: each cell judged against the objective, in
 * the grammar capacity uses too (grammar.ts parses it and says what a clause
 * names). A clause whose value has a confidence interval is judged on the
 * whole interval: pass when all of it keeps the bound, fail when none of it
 * does, inconclusive when it straddles the bound (the cell cannot tell: more
 * rounds or a longer window narrow it). A count (errors) is exact, and a value
 * with no interval is judged on itself, which the clause's words say.
 */
import type { CellResult, CellSloVerdict, SloClauseVerdict, SloVerdict } from '../../shared/types/result-types.js';
import { isMeasured } from '../../shared/types/result-types.js';
import { checkSlo, clauseHolds, type Slo } from './grammar.js';

/** The cell's verdict; null for a cell that measured nothing (skipped, or failed before its window: its status already fails the run). */
export function judgeCellSlo(slo: Slo, cell: CellResult): CellSloVerdict | null {
  if (!isMeasured(cell)) return null;
  const clauses = checkSlo(slo, cell.metrics, cell.missing).map((outcome): SloClauseVerdict => {
    const { clause, value } = outcome;
    const unit = clause.unit === 'count' ? '' : ` ${clause.unit}`;
    const bound = `${clause.operator} ${clause.limit}${unit}`;
    if (value === null)
      return { clause: clause.text, verdict: 'fail', value, why: outcome.why ?? `${clause.label} not measured` };
    const interval =
      clause.metrics.length === 1 && clause.operator !== '=' ? cell.intervals?.[clause.metrics[0]!] : undefined;
    if (!interval) {
      const exact = clause.kind === 'errors' ? '' : ' (no interval: judged on the value alone)';
      return {
        clause: clause.text,
        verdict: outcome.held ? 'pass' : 'fail',
        value,
        why: `${clause.label} ${show(value)}${unit} ${outcome.held ? '' : 'not '}${bound}${exact}`,
      };
    }
    const lowHolds = clauseHolds(clause, interval.low);
    const highHolds = clauseHolds(clause, interval.high);
    const verdict: SloVerdict = lowHolds && highHolds ? 'pass' : !lowHolds && !highHolds ? 'fail' : 'inconclusive';
    const range = `${show(value)} [${show(interval.low)}, ${show(interval.high)}]${unit}`;
    const said =
      verdict === 'pass'
        ? bound
        : verdict === 'fail'
          ? `not ${bound}`
          : `straddles ${clause.operator} ${clause.limit}${unit}`;
    return {
      clause: clause.text,
      verdict,
      value,
      low: interval.low,
      high: interval.high,
      why: `${clause.label} ${range} ${said}`,
    };
  });
  return { verdict: worst(clauses.map((c) => c.verdict)), clauses };
}

/** Every cell's verdict in place of none: the result a run with --slo returns. */
export function withSloVerdicts<R extends { cells: CellResult[] }>(
  result: R,
  slo: Slo,
): R & { slo: { text: string; clauses: Slo['clauses'] } } {
  const cells = result.cells.map((cell): CellResult => {
    const verdict = judgeCellSlo(slo, cell);
    return verdict ? ({ ...cell, slo: verdict } as CellResult) : cell;
  });
  return { ...result, cells, slo: { text: slo.text, clauses: slo.clauses } };
}

function worst(verdicts: SloVerdict[]): SloVerdict {
  return verdicts.includes('fail') ? 'fail' : verdicts.includes('inconclusive') ? 'inconclusive' : 'pass';
}

function show(value: number): string {
  return Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 1 ? value.toFixed(2) : value.toPrecision(2);
}
