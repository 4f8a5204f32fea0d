/**
 * A result file can pass its schema and still hold histogram text that does
 * not decode (edited by hand, cut short, bit-flipped in transit): every
 * reporter would then stop with a zlib error deep inside a chart. Commands
 * that read a result check its histograms once, up front, and refuse the file
 * in one line naming the cell and the histogram.
 */
import { UsageError } from '../../shared/types/errors.js';
import { decodeHistogram } from '../../shared/measure/metrics.js';
import { isMeasured, type BenchResult } from '../../shared/types/result-types.js';
import { cellNamer } from '../parameter-labels.js';

/** Throws a UsageError naming the first stored histogram of `result` that does not decode. */
export function checkStoredHistograms(result: BenchResult, source: string): void {
  const name = cellNamer(result.cells, (scenario) => result.scenarios.find((s) => s.name === scenario)?.parameters);
  result.cells.forEach((cell, index) => {
    if (!isMeasured(cell)) return;
    const sides = [
      ['histogram', cell.measurements.histograms],
      ['server histogram', cell.measurements.serverHistograms],
    ] as const;
    for (const [what, histograms] of sides) {
      for (const [key, encoded] of Object.entries(histograms)) {
        const problem = decodeProblem(encoded);
        if (problem !== null)
          throw new UsageError(`${source}: cells[${index}] (${name(cell)}): ${what} "${key}" is corrupt (${problem})`);
      }
    }
  });
}

function decodeProblem(encoded: Parameters<typeof decodeHistogram>[0]): string | null {
  try {
    const histogram = decodeHistogram(encoded);
    return Number.isFinite(histogram.totalCount) && histogram.totalCount >= 0
      ? null
      : `it counts ${histogram.totalCount} samples`;
  } catch (error) {
    return String((error as Error).message ?? error)
      .split('\n')[0]!
      .replace(/[()]/g, '');
  }
}
