/**
 * What an output format is: text made from one kind of result, for stdout or a
 * file (`--format NAME[=FILE]`). A format renders the kinds it knows and
 * declares them by the renderers it has; a command asks for its kind and is
 * refused, in one line, by a format without it. Renderers are pure functions
 * of what they are given; the commands print and write.
 */
import type { BenchResult, CapacityResult } from '../../shared/types/result-types.js';
import type { Comparison } from '../compare/compare.js';
import type { Gate, InconclusivePolicy } from '../compare/compare-gate.js';

/** A comparison as `compare` renders it: the cells' deltas, the two sides' names, and the gate when one was asked for. */
export interface ComparisonOutput {
  comparison: Comparison;
  names: { base: string; next: string };
  /** The verdict of --fail-on-regression; null without it. */
  gate: Gate | null;
  /** --inconclusive: whether a change the data cannot decide fails (it does only with a gate). */
  inconclusive: InconclusivePolicy;
}

/** What each kind of result a command has is, for a renderer. */
export interface FormatInputs {
  /** A run's result (`run`, `recover`, `merge`). */
  run: BenchResult;
  /** A capacity search's result (`capacity`). */
  capacity: CapacityResult;
  /** Two results, or two servers of one, compared (`compare`). */
  comparison: ComparisonOutput;
}

export type ResultKind = keyof FormatInputs;

/** The kinds as a message names them. */
export const RESULT_KIND_WORDS: Record<ResultKind, string> = {
  run: 'run results',
  capacity: 'capacity results',
  comparison: 'comparisons',
};

export interface OutputFormat {
  /** One line for --help and docs/output-formats.md. */
  description: string;
  /**
   * Text for people reading a terminal (the table, Markdown): with another format on stdout, the
   * progress line stays off and `compare` repeats its warnings and gate lines on stderr.
   */
  forPeople: boolean;
  /** The whole result as JSON, as the result file holds it: a run that could not save its file prints nothing more on stdout. */
  wholeResult?: boolean;
  /** The kinds it renders, each to its whole text (ending with a line break). */
  render: { [K in ResultKind]?: (input: FormatInputs[K]) => string };
}
