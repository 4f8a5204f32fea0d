/**
 * The machine's noise, said where it matters (issue 41, item 4): when the load,
 * the control or the rounds show the machine was busier than the answers can
 * bear, the table's first lines say what the load was, what showed it, how many
 * answers it left undecided and what to do; the Markdown and the HTML open with
 * the same lines. A busy machine whose answers were all decided gets no such
 * lines, and a run --until-decided says first how its rounds stopped.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BenchResult, MeasuredCell } from '../src/shared/types/result-types.js';
import { controlSection } from '../src/parent/stats/control.js';
import { renderTable } from '../src/parent/report/run/table.js';
import { renderResultMarkdown } from '../src/parent/report/run/run-markdown.js';
import { renderHtml } from '../src/parent/report/html/html.js';
import { result } from './fixtures/synthetic-results.js';
import { P50_INFO, P50_METRICS, roundsCell } from './fixtures/p50-rounds.js';

const repeated = (server: string, rounds: number[]): MeasuredCell => roundsCell(server, 'ws', rounds);

/** Two servers the rounds cannot tell apart (one of them unstable), on a machine at load 9.6 of 2 cores. */
function busy(): BenchResult {
  const ws = { ...repeated('ws', [0.012, 0.03, 0.014]), unstable: 'unstable: rounds differ 2.5x: ...' };
  return {
    ...result(P50_INFO, [ws, repeated('uws', [0.011, 0.012, 0.025])]),
    repeat: 3,
    machineLoad: { atStart: 9.6, atEnd: 8.1, cores: 2 },
  };
}

test('a busy machine that left answers undecided is said first: the load, what showed it, what to do', () => {
  const lines = renderTable(busy()).split('\n');
  assert.equal(
    lines[0],
    'machine: busier than these answers can bear: load average 9.6 as the run started and 8.1 as it ended, on 2 cores; 1 of 2 cells unstable (their rounds far apart: the machine changed speed); 1 of 1 rankings and verdicts are not decided (each says so below)',
  );
  assert.equal(
    lines[1],
    'what to do: quiet the machine (stop other work) and run again; or let rounds decide (--until-decided --budget 3m); or give each cell more time (--duration 5s)',
  );
  assert.equal(lines[3], 'echo: echo (synthetic)');
  const markdown = renderResultMarkdown(busy()).split('\n');
  assert.match(markdown[2]!, /^> machine: busier than these answers can bear: load average 9\.6 /);
  assert.match(
    renderHtml(busy(), []),
    /<h1>[^<]*<\/h1>\n<p>Started [^\n]*<\/p>\n<p class="note">machine: busier than these answers can bear: /,
  );
});

test('the control apart beyond its intervals is said first, whatever was decided', () => {
  const steady = (server: string, p50: number[]) => repeated(server, p50);
  const file: BenchResult = {
    ...result(P50_INFO, [steady('ws', [0.02, 0.021, 0.02]), steady('uws', [0.01, 0.0105, 0.01])]),
    repeat: 3,
    control: controlSection(P50_METRICS, steady('ws', [0.02, 0.021, 0.02]), steady('ws', [0.026, 0.027, 0.026])),
  };
  const first = renderTable(file).split('\n')[0]!;
  assert.match(
    first,
    /^machine: busier than these answers can bear: the control's two identical cells read 30% apart on p50 ms, beyond their intervals$/,
  );
});

test('a busy machine whose answers were all decided gets no such lines; a run until decided says how it stopped', () => {
  const decided: BenchResult = {
    ...result(P50_INFO, [repeated('ws', [0.02, 0.021, 0.02]), repeated('uws', [0.01, 0.0105, 0.01])]),
    repeat: 3,
    machineLoad: { atStart: 9.6, atEnd: 8.1, cores: 2 },
    decision: {
      budgetMs: 60_000,
      maxRounds: 3,
      plannedLooks: [3],
      rule: 'one look, after 3 rounds (the budget holds no more), at the full 5 %',
      looks: [{ rounds: 3, elapsedMs: 50_000, level: 0.95, asked: 1, undecided: [] }],
      stopped: 'decided',
    },
  };
  const lines = renderTable(decided).split('\n');
  assert.equal(
    lines[0],
    "until decided (budget 1m): 1 look, after 3 rounds; stopped: every ranking and verdict decided (1). Every interval below is the last look's, at 95 %: the 95 % shared out over the looks, so that what they decide holds at 95 % (docs/reading-results.md)",
  );
  assert.equal(lines[1], '');
  assert.equal(lines[2], 'echo: echo (synthetic)');
});
