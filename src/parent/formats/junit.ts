/**
 * JUnit XML, which CI systems show as test results: one testcase per cell.
 *
 * A run: a cell that failed, ended with errors or failed its --slo is a
 * failure (its reason the message), a skipped cell is skipped, the others pass;
 * the key numbers go in each testcase's system-out. The exit code may still be
 * 0 for an errors cell within --max-errors: the report shows the cell as it ended.
 *
 * A comparison: a cell with a change the gate counts (REGRESSED, as the table
 * says; without a gate every significant regression), or a cell the new file
 * lacks, is a failure; with --inconclusive fail, so is a cell with an
 * inconclusive change. A cell skipped in both files, and one only the new file
 * has, is skipped. Every text is XML-escaped (src/parent/escape/xml.ts).
 */
import { isMeasured, type BenchResult, type CellResult } from '../../shared/types/result-types.js';
import type { ComparisonOutput, OutputFormat } from './format-types.js';
import { cellLabel, variedParameters } from '../parameter-labels.js';
import { formatMetric } from '../report/run/table.js';
import { formatChange } from '../compare/compare-gate.js';
import { intervalText, verdictText } from '../compare/compare-text.js';
import type { MetricDelta } from '../compare/compare.js';
import { xmlAttribute, xmlText } from '../escape/xml.js';

/** One testcase: it passed, failed (with why), or was skipped (with why). */
interface TestCase {
  suite: string;
  name: string;
  seconds?: number;
  outcome: { kind: 'passed' } | { kind: 'failure' | 'skipped'; type: string; message: string };
  /** Lines for system-out: the cell's numbers. */
  out: string[];
}

export const junitFormat: OutputFormat = {
  description:
    'JUnit XML for CI test reports: one testcase per cell (run: failed, errors and --slo fail are failures; compare: what regressed)',
  forPeople: false,
  render: {
    run: (result) => junitXml('wsbench run', runCases(result)),
    comparison: (output) => junitXml('wsbench compare', comparisonCases(output)),
  },
};

function runCases(result: BenchResult): TestCase[] {
  return result.scenarios.flatMap((scenario) => {
    const cells = result.cells.filter((c) => c.scenario === scenario.name);
    const varied = variedParameters(cells);
    return cells.map(
      (cell): TestCase => ({
        suite: scenario.name,
        name: cellLabel(cell, varied, scenario.parameters),
        seconds: cell.elapsedMs / 1000,
        outcome: runOutcome(cell),
        out: isMeasured(cell)
          ? scenario.table.map(
              (key) =>
                `${scenario.metrics[key]?.header ?? key}: ${formatMetric(cell.metrics[key], scenario.metrics[key]?.unit ?? 'count')}`,
            )
          : [],
      }),
    );
  });
}

function runOutcome(cell: CellResult): TestCase['outcome'] {
  if (cell.status === 'skipped') return { kind: 'skipped', type: 'skipped', message: cell.reason };
  if (cell.status === 'failed' || cell.status === 'errors')
    return { kind: 'failure', type: cell.status, message: cell.reason };
  if (isMeasured(cell) && cell.slo?.verdict === 'fail') {
    return {
      kind: 'failure',
      type: 'slo',
      message: `--slo failed: ${cell.slo.clauses
        .filter((c) => c.verdict === 'fail')
        .map((c) => c.why)
        .join('; ')}`,
    };
  }
  return { kind: 'passed' };
}

function comparisonCases({ comparison, gate, inconclusive }: ComparisonOutput): TestCase[] {
  const compared = comparison.cells.map((cell): TestCase => {
    const worded = cell.deltas.map((d) => ({ d, verdict: verdictText(d, gate) }));
    const regressed = worded
      .filter((w) => w.verdict === 'REGRESSED')
      .map((w) => changeText(w.d, cell.baseStatus, cell.nextStatus, cell.nextReason));
    const undecided = worded
      .filter((w) => w.verdict === 'inconclusive')
      .map((w) => changeText(w.d, cell.baseStatus, cell.nextStatus, cell.nextReason));
    const outcome: TestCase['outcome'] =
      regressed.length > 0
        ? { kind: 'failure', type: 'regressed', message: `regressed: ${regressed.join('; ')}` }
        : inconclusive === 'fail' && undecided.length > 0
          ? {
              kind: 'failure',
              type: 'inconclusive',
              message: `inconclusive (--inconclusive fail): ${undecided.join('; ')}`,
            }
          : cell.baseStatus === 'skipped' && cell.nextStatus === 'skipped'
            ? { kind: 'skipped', type: 'skipped', message: 'skipped in both files' }
            : { kind: 'passed' };
    return {
      suite: cell.scenario,
      name: cell.label,
      outcome,
      out: worded.map((w) => `${changeText(w.d, cell.baseStatus, cell.nextStatus, cell.nextReason)}: ${w.verdict}`),
    };
  });
  const missing = comparison.missingInNext.map(
    (cell): TestCase => ({
      suite: cell.scenario,
      name: cell.label,
      outcome:
        cell.status === 'skipped'
          ? { kind: 'skipped', type: 'skipped', message: 'skipped in the base, not in the new file' }
          : { kind: 'failure', type: 'missing', message: `not in the new file (${cell.status} in the base)` },
      out: [],
    }),
  );
  const added = comparison.newInNext.map(
    (cell): TestCase => ({
      suite: cell.scenario,
      name: cell.label,
      outcome: { kind: 'skipped', type: 'new', message: 'only in the new file: nothing to compare it with' },
      out: [],
    }),
  );
  return [...compared, ...missing, ...added];
}

/** `p99 ms +12.0% [+4.1%, +20.3%]`, `status ok -> failed (reason)`, `errors 0 -> 3`. */
function changeText(d: MetricDelta, base: string, next: string, reason: string | null): string {
  if (d.role === 'status') return `status ${base} -> ${next}${reason ? ` (${reason})` : ''}`;
  const pct = d.change?.estimatePct ?? d.changePct;
  if (pct === null) return `${d.metric} ${d.base ?? 'n/a'} -> ${d.next ?? 'n/a'}`;
  return [d.metric, formatChange(pct), intervalText(d)].filter(Boolean).join(' ');
}

function junitXml(name: string, cases: TestCase[]): string {
  const count = (list: TestCase[], kind: string): number => list.filter((c) => c.outcome.kind === kind).length;
  const suites = [...new Set(cases.map((c) => c.suite))].map((suite) => {
    const members = cases.filter((c) => c.suite === suite);
    return [
      `  <testsuite name="${xmlAttribute(suite)}" tests="${members.length}" failures="${count(members, 'failure')}" errors="0" skipped="${count(members, 'skipped')}">`,
      ...members.map(testCase),
      '  </testsuite>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttribute(name)}" tests="${cases.length}" failures="${count(cases, 'failure')}" errors="0" skipped="${count(cases, 'skipped')}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

function testCase(c: TestCase): string {
  const time = c.seconds === undefined ? '' : ` time="${c.seconds.toFixed(3)}"`;
  const open = `    <testcase classname="${xmlAttribute(`wsbench.${c.suite}`)}" name="${xmlAttribute(c.name)}"${time}>`;
  const outcome =
    c.outcome.kind === 'passed'
      ? []
      : c.outcome.kind === 'skipped'
        ? [`      <skipped message="${xmlAttribute(c.outcome.message)}"/>`]
        : [
            `      <failure type="${xmlAttribute(c.outcome.type)}" message="${xmlAttribute(c.outcome.message)}">${xmlText(c.outcome.message)}</failure>`,
          ];
  const out = c.out.length ? [`      <system-out>${xmlText(c.out.join('\n'))}</system-out>`] : [];
  return [open, ...outcome, ...out, '    </testcase>'].join('\n');
}
