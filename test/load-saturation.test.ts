/**
 * A load generator that could not keep up is said, with its evidence (CPU,
 * event-loop utilisation, how late its timers fired) and what to do: in the
 * cell's JSON, the table's status and footer, and the HTML. One judgement
 * (measure/saturation.ts) serves run, capacity and shard merges, on the one CPU
 * threshold; a quiet cell never gets it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMeasured, type BenchResult } from '../src/parent/index.js';
import type { ProcessResources } from '../src/shared/types/result-types.js';
import { loadSaturationOf, SATURATED_CPU_PERCENT } from '../src/parent/measure/saturation.js';
import { judgeCell } from '../src/parent/capacity/judge.js';
import { spreadCount } from '../src/parent/engine/params.js';
import echoScenario from '../scenarios/echo.js';
import { parseSlo } from '../src/parent/slo/grammar.js';
import { REPO_ROOT, runCli, tempDir, runArgs } from './support.js';
import { cell, exponentialHistogram, scenarioInfo } from './fixtures/synthetic-results.js';
import { latencyMetric } from './fixtures/metric-declarations.js';

function client(cpu: number, loop: number | null, lateMs: [number, number] | null): ProcessResources {
  return {
    cpuPercent: { mean: cpu, max: cpu + 4 },
    rssBytes: { mean: 300e6, max: 340e6 },
    eventLoopUtilization: loop === null ? null : { mean: loop, max: Math.min(1, loop + 0.01) },
    timerLatenessMs: lateMs === null ? null : { mean: lateMs[0], max: lateMs[1] },
    samples: 40,
  };
}

test('the judgement: a fan-out client at a full core is saturated, one waiting for a core is starved, a quiet one is neither', () => {
  // fanout, 10,000 clients on uws, 100 ms interval, one client process, as measured.
  assert.deepEqual(loadSaturationOf([client(103, 0.999, [250, 900])]), {
    saturated: [1],
    starved: [],
    evidence:
      `load generator saturated (from ${SATURATED_CPU_PERCENT}% of a core): CPU 103% of a core (peak 107%), event loop busy 99.9%, timers late by 250 ms on average (at worst 900 ms); ` +
      'its latencies include its own queueing; spread the load over more client processes (--client-procs 2 or more)',
  });
  // The same cell on a machine whose cores other processes held.
  const starved = loadSaturationOf([client(49, 1, [990, 3100])]);
  assert.deepEqual([starved?.saturated, starved?.starved], [[], [1]]);
  assert.match(
    starved!.evidence,
    /^load generator starved of CPU .*: CPU 49% of a core \(peak 53%\), event loop busy 100\.0%, timers late by 990 ms on average \(at worst 3\.1 s\); .*--client-procs 2\)$/,
  );
  // Where /proc gives its demand, that is judged: it wanted a whole core and got half.
  const wanted = loadSaturationOf([{ ...client(49, 1, [990, 3100]), cpuDemandPercent: { mean: 99, max: 101 } }]);
  assert.deepEqual([wanted?.saturated, wanted?.starved], [[1], []]);
  assert.match(
    wanted!.evidence,
    /: CPU demand 99% of a core \(peak 101%; on CPU 49%, the rest waiting for a core\), event loop busy 100\.0%/,
  );
  assert.equal(loadSaturationOf([{ ...client(45, 0.48, [4.5, 98]), cpuDemandPercent: { mean: 52, max: 70 } }]), null);
  // A quiet client on a crowded machine waits for a core after each wake-up, yet its loop was idle: not saturated.
  assert.equal(loadSaturationOf([{ ...client(5, 0.16, [12, 97]), cpuDemandPercent: { mean: 96, max: 100 } }]), null);
  // A 2-connection echo cell, as measured on the same machine; and a runtime that reports no event loop.
  assert.equal(loadSaturationOf([client(45, 0.48, [4.5, 98])]), null);
  assert.equal(loadSaturationOf([client(60, null, null)]), null);
  // Several processes: each named, the busy one alone.
  const two = loadSaturationOf([client(40, 0.3, [1, 5]), client(95, 0.97, [30, 80])]);
  assert.deepEqual(two?.saturated, [2]);
  assert.match(two!.evidence, /: client 2: CPU 95% .*\(--client-procs 3 or more\)$/);
});

test('processes past the count they split had nothing to do: the advice says so, never "more client processes"', () => {
  // echo, --connections 1 --client-procs 2: client 1 holds the one connection and burns its core, client 2 has none.
  const spread = spreadCount(echoScenario, { connections: 1, inflight: 1 });
  assert.deepEqual(spread, { name: 'connections', total: 1 });
  const one = loadSaturationOf([client(99, 0.99, [20, 60]), client(1, 0.01, null)], spread);
  assert.deepEqual(one?.saturated, [1]);
  assert.equal(
    one!.evidence,
    `load generator saturated (from ${SATURATED_CPU_PERCENT}% of a core): client 1: CPU 99% of a core (peak 103%), event loop busy 99.0%, ` +
      'timers late by 20 ms on average (at worst 60 ms); its latencies include its own queueing; ' +
      'client 2 had nothing to do (connections=1 over 2 client processes): more client processes cannot spread it further',
  );
  const starved = loadSaturationOf([client(40, 0.99, null), client(1, 0.01, null), client(1, 0.01, null)], {
    name: 'connections',
    total: 1,
  });
  assert.match(
    starved!.evidence,
    /; clients 2 to 3 had nothing to do \(connections=1 over 3 client processes\): more client processes cannot spread it further; free the machine's cores$/,
  );
  // Every process had a share: the usual advice.
  assert.match(
    loadSaturationOf([client(99, 0.99, null), client(99, 0.99, null)], { name: 'connections', total: 2 })!.evidence,
    /\(--client-procs 3 or more\)$/,
  );
});

test('a client that burns its core is said in the JSON, the table, its footer and the HTML; a quiet cell is not', {
  timeout: 120_000,
}, async () => {
  const dir = tempDir();
  const busy = await runCli(
    runArgs(
      join(REPO_ROOT, 'dist/test/fixtures/busy-client.js'),
      'ws',
      'ws',
      '--duration',
      '2s',
      '--out',
      join(dir, 'busy.json'),
    ),
  );
  assert.equal(busy.code, 0, busy.stderr);
  const [hot] = (JSON.parse(readFileSync(join(dir, 'busy.json'), 'utf8')) as BenchResult).cells;
  assert.ok(hot && isMeasured(hot) && hot.loadSaturation, JSON.stringify(hot));
  assert.deepEqual([...hot.loadSaturation.saturated, ...hot.loadSaturation.starved], [1]);
  assert.match(
    hot.loadSaturation.evidence,
    /CPU (demand )?\d+% of a core \(peak \d+%[^)]*\), event loop busy \d+\.\d%, timers late by .*its latencies include its own queueing; .*--client-procs 2/,
  );
  assert.ok(hot.resources.clients[0]!.timerLatenessMs, 'each process measures its timers');
  assert.match(busy.stdout, /^ws\s+ws\s+ok, client (saturated|starved)\s/m);
  assert.ok(
    busy.stdout.includes(`load generators that could not keep up:\n  ws x ws: ${hot.loadSaturation.evidence}`),
    busy.stdout,
  );
  const html = readFileSync(join(dir, 'busy.report', 'report.html'), 'utf8');
  assert.ok(html.includes('ok, client '), 'the HTML status');
  assert.ok(html.includes(`<td class="text warn" colspan="`), 'the evidence on a row of its own');

  const quiet = await runCli(
    runArgs(
      join(REPO_ROOT, 'dist/test/fixtures/user-scenario.js'),
      'ws',
      'ws',
      '--connections',
      '2',
      '--duration',
      '2s',
      '--out',
      join(dir, 'quiet.json'),
    ),
  );
  assert.equal(quiet.code, 0, quiet.stderr);
  const [calm] = (JSON.parse(readFileSync(join(dir, 'quiet.json'), 'utf8')) as BenchResult).cells;
  assert.ok(calm && isMeasured(calm));
  assert.equal(calm.loadSaturation, undefined, JSON.stringify(calm.resources.clients));
  assert.match(quiet.stdout, /^ws\s+ws\s+ok\s/m);
  assert.doesNotMatch(quiet.stdout, /could not keep up/);
});

test("capacity reads the cell's judgement: the same cell is an invalid step exactly when run says its load generator saturated", () => {
  const info = scenarioInfo('echo', {
    metrics: {
      rttP99Ms: latencyMetric('rtt', 'p99'),
    },
    table: ['rttP99Ms'],
    charts: [],
  });
  const slo = parseSlo('p99<500ms', info);
  const saturated = cell('echo', {
    server: 'uws',
    client: 'ws',
    histograms: { rtt: exponentialHistogram(200, 300, 1) },
  });
  assert.ok(isMeasured(saturated));
  saturated.resources.clients = [client(103, 0.999, [250, 900])];
  saturated.loadSaturation = loadSaturationOf(saturated.resources.clients)!;
  assert.equal(judgeCell(saturated, slo, info, null, 100, 1).clientSaturated, true);
  const starved = { ...saturated, loadSaturation: loadSaturationOf([client(49, 1, [990, 3100])])! };
  const step = judgeCell(starved, slo, info, null, 100, 1);
  assert.deepEqual([step.clientSaturated, step.clientStarved], [false, true]);
  // The server's judgement is the same one: a server that wanted a whole core (and got 40% of it) is saturated.
  const busyServer = {
    ...saturated,
    resources: {
      ...saturated.resources,
      server: { ...client(40, 0.99, null), cpuDemandPercent: { mean: 97, max: 100 } },
    },
  };
  assert.equal(judgeCell(busyServer, slo, info, null, 100, 1).serverSaturated, true);
  // A cell without the engine's judgement (an older file) is judged from its resources by the same function.
  const { loadSaturation: _, ...unjudged } = saturated;
  assert.equal(judgeCell(unjudged, slo, info, null, 100, 1).clientSaturated, true);
  const quiet = { ...unjudged, resources: { ...unjudged.resources, clients: [client(45, 0.48, [4.5, 98])] } };
  assert.equal(judgeCell(quiet, slo, info, null, 100, 1).clientSaturated, false);
});
