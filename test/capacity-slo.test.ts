/** SLO clauses read against a scenario's declarations and checked against cells whose metrics are known. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fanout from '../scenarios/fanout.js';
import { scenarioInfo } from '../src/parent/engine/scenario-info.js';
import { upgradeV1, type V1Result } from '../src/parent/results/result-upgrade.js';
import type { ScenarioInfo } from '../src/parent/index.js';
import { checkSlo, parseSlo } from '../src/parent/slo/grammar.js';
import { describeBreak, judgeCell } from '../src/parent/capacity/judge.js';
import { cell, resources, scenarioInfo as syntheticInfo } from './fixtures/synthetic-results.js';
import { REPO_ROOT, runCli } from './support.js';
import { latencyMetric } from './fixtures/metric-declarations.js';

// A version 1 file: upgraded as `report` would, without depending on the reader's validation.
const echoRun = upgradeV1(JSON.parse(readFileSync(join(REPO_ROOT, 'test/fixtures/echo-run.json'), 'utf8')) as V1Result);
const echo = echoRun.scenarios[0]!;
const fanoutInfo = scenarioInfo(fanout);
const byPair = (server: string, client: string) => {
  const found = echoRun.cells.find((c) => c.server === server && c.client === client);
  if (!found || found.measurements === undefined) throw new Error(`fixture has no measured ${server} x ${client}`);
  return found;
};

test('p99 is the p99 of the primary-latency histogram and errors every errors-role metric, found by declaration', () => {
  const slo = parseSlo('p99<500ms, errors=0', fanoutInfo);
  assert.equal(slo.text, 'p99<500ms, errors=0');
  const [latency, errors] = slo.clauses;
  assert.deepEqual(
    {
      kind: latency!.kind,
      metrics: latency!.metrics,
      operator: latency!.operator,
      limit: latency!.limit,
      unit: latency!.unit,
      label: latency!.label,
    },
    { kind: 'latency', metrics: ['delayP99Ms'], operator: '<', limit: 500, unit: 'ms', label: 'p99' },
  );
  assert.equal(errors!.kind, 'errors');
  assert.deepEqual([...errors!.metrics].sort(), ['connectFailed', 'dropped', 'errors', 'missing', 'outOfOrder']);
  // A statistic the scenario does not call primary still reads the primary histogram; units convert to the metric's.
  assert.deepEqual(parseSlo('p999<1.5s', fanoutInfo).clauses[0]!.metrics, ['delayP999Ms']);
  assert.equal(parseSlo('p999<1.5s', fanoutInfo).clauses[0]!.limit, 1500);
  assert.equal(parseSlo('p99<=750us', fanoutInfo).clauses[0]!.limit, 0.75);
  // A metric key stands for itself.
  const key = parseSlo('delayP999Ms<1000', fanoutInfo).clauses[0]!;
  assert.deepEqual([key.kind, key.metrics, key.limit, key.label], ['latency', ['delayP999Ms'], 1000, 'delayP999Ms']);
  assert.equal(parseSlo('messagesPerSec>=100', fanoutInfo).clauses[0]!.kind, 'metric');
});

test('checking the echo fixture: which pairs hold p99<2ms and errors=0, and in what words the others fail', () => {
  const slo = parseSlo('p99<2ms,errors=0', echo);
  const held = (server: string, client: string) =>
    checkSlo(slo, byPair(server, client).metrics, byPair(server, client).missing);
  assert.deepEqual(
    held('ws', 'ws').map((o) => [o.value, o.held, o.why]),
    [
      [1.851, true, null],
      [0, true, null],
    ],
  );
  assert.deepEqual(
    held('ws', 'undici').map((o) => [o.value, o.held, o.why]),
    [
      [5.775, false, 'p99 5.78 ms not < 2 ms'],
      [0, true, null],
    ],
  );
  assert.deepEqual(
    held('uws', 'undici').map((o) => o.held),
    [true, true],
  );
  const strict = parseSlo('p99<=0.126ms,messagesPerSec>20000', echo);
  assert.deepEqual(
    checkSlo(strict, byPair('uws', 'ws').metrics).map((o) => o.held),
    [true, true],
  );
  assert.deepEqual(
    checkSlo(strict, byPair('ws', 'ws').metrics).map((o) => o.why),
    ['p99 1.85 ms not <= 0.126 ms', 'messagesPerSec 9486 msg/s not > 20000 msg/s'],
  );
});

test('a value the cell lacks fails its clause with the reason', () => {
  const slo = parseSlo('p99<500ms,errors=0', fanoutInfo);
  const outcomes = checkSlo(slo, { delayP99Ms: null }, { delayP99Ms: 'no samples in the window' });
  assert.deepEqual(
    outcomes.map((o) => o.why),
    ['p99 not measured: no samples in the window', 'errors not measured: not in the cell'],
  );
});

test('judging a cell: SLO breaches, server CPU saturation and a saturated load generator', () => {
  const slo = parseSlo('p99<2ms,errors=0', echo);
  const busy = cell('echo', {
    server: 'ws',
    client: 'ws',
    metrics: { rttP99Ms: 3, errors: 2, connectionsLost: 0 },
    serverResources: resources(97, 100, 60),
  });
  if (busy.measurements === undefined) throw new Error('fixture cell must be measured');
  busy.resources.clients = [resources(91, 99, 50)];
  const judged = judgeCell(busy, slo, echo, 'rttP99Ms', 400, 1);
  assert.equal(judged.verdict, 'broken');
  assert.deepEqual(judged.causes, ['latency', 'errors']);
  assert.deepEqual(judged.breaches, ['p99 3 ms not < 2 ms', 'errors 2 not = 0']);
  assert.equal(judged.serverSaturated, true);
  assert.equal(judged.serverStarved, false);
  assert.equal(judged.clientSaturated, true);
  assert.equal(judged.latencyMs, 3);
  assert.equal(judged.errors, 2);
  const calm = cell('echo', {
    server: 'uws',
    client: 'ws',
    metrics: { rttP99Ms: 1, errors: 0 },
    serverResources: resources(30, 40, 60),
  });
  const fine = judgeCell(calm, slo, echo, 'rttP99Ms', 400, 1);
  assert.deepEqual(
    [fine.verdict, fine.serverSaturated, fine.clientSaturated, fine.causes],
    ['within', false, false, []],
  );
  // A busy event loop on little CPU is a server waiting for a core, not one at its limit.
  const starved = cell('echo', {
    server: 'ws',
    client: 'ws',
    metrics: { rttP99Ms: 9, errors: 0 },
    serverResources: { ...resources(20, 30, 60), eventLoopUtilization: { mean: 0.98, max: 1 } },
  });
  const waiting = judgeCell(starved, slo, echo, 'rttP99Ms', 1600, 1);
  assert.deepEqual([waiting.serverSaturated, waiting.serverStarved], [false, true]);
  assert.equal(
    describeBreak(waiting),
    'latency (p99 9 ms not < 2 ms); server starved of CPU (CPU 20 % of a core, event loop busy 98 %: the cores were busy elsewhere)',
  );
});

const noErrors: ScenarioInfo = syntheticInfo('quiet', {
  metrics: {
    rttP99Ms: latencyMetric('rtt', 'p99'),
  },
  table: ['rttP99Ms'],
  charts: [],
});

const badClauses: Array<[string, ScenarioInfo, string]> = [
  ['', fanoutInfo, 'slo: give at least one clause, such as p99<500ms or errors=0'],
  [
    'p99<',
    fanoutInfo,
    'slo: "p99<" is not a clause such as p99<500ms or errors=0 (a name, one of < <= = >= >, a number with an optional unit)',
  ],
  ['p99<500ms,,errors=0', fanoutInfo, 'slo: an empty clause in "p99<500ms,,errors=0"'],
  [
    'latency<5ms',
    fanoutInfo,
    'slo: unknown metric "latency": use p50, p90, p99, p999, mean, max, min, errors, or a metric key fanout declares (wsbench list --json shows them)',
  ],
  ['p99<5kb', fanoutInfo, 'slo: "p99<5kb": p99 is a duration; write its bound as 500ms, 2s or 750us'],
  ['errors<5%', fanoutInfo, 'slo: "errors<5%": errors is in count; write the bound as a plain number'],
  ['errors=0', noErrors, 'slo: quiet declares no metric with the errors role, so "errors" means nothing here'],
  [
    'errors=-1',
    fanoutInfo,
    'slo: "errors=-1": no cell can keep it (errors is never below 0), so every cell would fail',
  ],
  ['errors<0', fanoutInfo, 'slo: "errors<0": no cell can keep it (errors is never below 0), so every cell would fail'],
  ['mean<0ms', fanoutInfo, 'slo: "mean<0ms": no cell can keep it (mean is never below 0), so every cell would fail'],
  ['p99<=-2', fanoutInfo, 'slo: "p99<=-2": no cell can keep it (p99 is never below 0), so every cell would fail'],
  [
    'p90<5ms',
    noErrors,
    'slo: quiet declares no p90 of its primary latency (histogram client:rtt); name a metric key instead',
  ],
];
for (const [text, info, message] of badClauses) {
  test(`bad SLO ${JSON.stringify(text)} on ${info.name}: ${message}`, () => {
    assert.throws(() => parseSlo(text, info), { name: 'ParameterError', message });
  });
}

test('bad SLOs on the command line: one line naming --slo, exit 2, nothing started', async () => {
  const cases: Array<[string[], string]> = [
    [
      ['capacity', 'fanout', '--slo', 'p99<'],
      'wsbench: --slo: "p99<" is not a clause such as p99<500ms or errors=0 (a name, one of < <= = >= >, a number with an optional unit)',
    ],
    [
      ['capacity', 'fanout', '--slo', 'nope<1'],
      'wsbench: --slo: unknown metric "nope": use p50, p90, p99, p999, mean, max, min, errors, or a metric key fanout declares (wsbench list --json shows them)',
    ],
    [['capacity', 'fanout'], "wsbench: --slo: required: what must hold, e.g. --slo 'p99<500ms,errors=0'"],
    [
      ['capacity', 'fanout', '--slo', 'p99<1s,errors=-1'],
      'wsbench: --slo: "errors=-1": no cell can keep it (errors is never below 0), so every cell would fail',
    ],
    [
      ['run', 'echo', '--slo', 'errors<0'],
      'wsbench: --slo: "errors<0": no cell can keep it (errors is never below 0), so every cell would fail',
    ],
    [
      ['run', 'echo', '--slo', 'mean<0ms'],
      'wsbench: --slo: "mean<0ms": no cell can keep it (mean is never below 0), so every cell would fail',
    ],
    [
      ['capacity', 'fanout', '--slo', 'p99<1s', '--connections', '10'],
      'wsbench: --connections: the capacity search varies it: set its range with start and max instead',
    ],
    [
      ['capacity', 'fanout', '--slo', 'p99<1s', '--vary', 'interval'],
      'wsbench: --vary: interval is a duration parameter; the search varies a whole-number one (a count of connections)',
    ],
    [
      ['capacity', 'fanout', '--slo', 'p99<1s', '--start', '500', '--max', '100'],
      'wsbench: --max: 100 is below --start (500): give a smaller --start, or a --max of 500 or more',
    ],
  ];
  for (const [args, expected] of cases) {
    const outcome = await runCli(args);
    assert.equal(outcome.code, 2, `${args.join(' ')}: ${outcome.stderr}`);
    assert.equal(outcome.stdout, '');
    assert.equal(outcome.stderr, `${expected}\n`);
  }
});
