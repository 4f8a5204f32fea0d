/**
 * `--format` is read before anything runs, the same on every command: a name
 * the registry lacks, a format that does not render the command's kind of
 * result, two formats for stdout, or a format file that is the result file, a
 * file the run writes beside it (its lock, its journal, anything in its report
 * folder) or an input is one line and exit 2, with nothing started and nothing
 * written.
 * `--json` stays the same as `--format json`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MetricInfo } from '../src/shared/types/declaration-types.js';
import { runCli, tempDir } from './support.js';
import { cell, result, scenarioInfo } from './fixtures/synthetic-results.js';
import { rateMetric } from './fixtures/metric-declarations.js';

const METRICS: Record<string, MetricInfo> = {
  messagesPerSec: rateMetric(),
};

test('a --format that cannot be served is one line and exit 2, before anything runs', async () => {
  const dir = tempDir();
  const out = join(dir, 'r.json');
  const input = join(dir, 'a.json');
  writeFileSync(
    input,
    JSON.stringify(
      result(scenarioInfo('echo', { metrics: METRICS, table: ['messagesPerSec'], charts: [] }), [
        cell('echo', { server: 'ws', client: 'ws', metrics: { messagesPerSec: 1 } }),
      ]),
    ),
  );
  const cases: Array<[string[], string]> = [
    [
      ['run', 'echo', '--out', out, '--format', 'yaml'],
      '--format: "yaml" is not one of table, json, json-line, markdown, csv, junit',
    ],
    [
      ['run', 'echo', '--out', out, '--format', 'csv', '--json'],
      '--format csv and --json: at most one format goes to stdout; send the others to files (--format NAME=FILE)',
    ],
    [
      ['run', 'echo', '--out', out, '--format', `junit=${out}`],
      `--format junit=${out}: ${out} is the --out file; give each output its own file`,
    ],
    [
      ['run', 'echo', '--out', out, '--format', `csv=${out}.lock`],
      `--format csv=${out}.lock: ${out}.lock is the lock of the --out file; give each output its own file`,
    ],
    [
      ['run', 'echo', '--out', out, '--format', `csv=${out}.journal`],
      `--format csv=${out}.journal: ${out}.journal is the journal of the --out file; give each output its own file`,
    ],
    [
      ['run', 'echo', '--out', out, '--format', `markdown=${join(dir, 'r.report', 'report.html')}`],
      `--format markdown=${join(dir, 'r.report', 'report.html')}: ${join(dir, 'r.report', 'report.html')} is in the report folder of the --out file (${join(dir, 'r.report')}); give each output its own file`,
    ],
    [
      ['capacity', 'echo', '--slo', 'p99<5ms', '--out', out, '--format', `json=${join(dir, 'r.report')}`],
      `--format json=${join(dir, 'r.report')}: ${join(dir, 'r.report')} is the report folder of the --out file; give each output its own file`,
    ],
    [['run', 'echo', '--out', out, '--format', 'csv='], '--format csv=: give a file after =, or no = for stdout'],
    [
      ['run', 'echo', '--out', out, '--format', `csv=${join(dir, 'no-such-dir', 'x.csv')}`],
      `--format csv=${join(dir, 'no-such-dir', 'x.csv')}: directory ${join(dir, 'no-such-dir')} does not exist`,
    ],
    [
      ['capacity', 'echo', '--slo', 'p99<5ms', '--out', out, '--format', 'csv'],
      '--format csv: csv renders run results, not capacity results',
    ],
    [['compare', input, input, '--format', 'csv'], '--format csv: csv renders run results, not comparisons'],
    [
      ['compare', input, input, '--format', `markdown=${input}`],
      `--format markdown=${input}: ${input} is the input file; give each output its own file`,
    ],
    [
      ['merge', input, '--out', out, '--format', 'junit', '--format', 'markdown'],
      '--format junit and --format markdown: at most one format goes to stdout; send the others to files (--format NAME=FILE)',
    ],
  ];
  const outcomes = await Promise.all(cases.map(([args]) => runCli(args, { cwd: dir })));
  for (const [i, outcome] of outcomes.entries()) {
    assert.equal(outcome.stderr, `wsbench: ${cases[i]![1]}\n`, cases[i]![0].join(' '));
    assert.equal(outcome.code, 2, cases[i]![0].join(' '));
    assert.equal(outcome.stdout, '');
  }
  assert.ok(!existsSync(out), 'no result written');
  assert.deepEqual(readdirSync(dir), ['a.json'], 'nothing written beside the input');
});

test('--json is --format json on stdout', async () => {
  const dir = tempDir();
  const input = join(dir, 'a.json');
  writeFileSync(
    input,
    JSON.stringify(
      result(scenarioInfo('echo', { metrics: METRICS, table: ['messagesPerSec'], charts: [] }), [
        cell('echo', { server: 'ws', client: 'ws', metrics: { messagesPerSec: 1 } }),
      ]),
    ),
  );
  const [alias, format] = await Promise.all([
    runCli(['compare', input, input, '--json']),
    runCli(['compare', input, input, '--format', 'json']),
  ]);
  assert.equal(alias.code, 0, alias.stderr);
  assert.equal(alias.stdout, format.stdout);
  assert.ok(Array.isArray((JSON.parse(alias.stdout) as { cells: unknown[] }).cells));
});
