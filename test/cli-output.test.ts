import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir, runArgs } from './support.js';
import { SCHEMA_VERSION, isMeasured, type BenchResult } from '../src/parent/index.js';

test('--json puts the result document, and nothing else, on stdout; the file holds the same', async () => {
  const out = join(tempDir(), 'r.json');
  const outcome = await runCli(runArgs('echo', 'uws', 'ws,socketio', '--duration', '200ms', '--json', '--out', out));
  assert.equal(outcome.code, 0, outcome.stderr);
  const printed = JSON.parse(outcome.stdout) as BenchResult;
  assert.deepEqual(printed, JSON.parse(readFileSync(out, 'utf8')));
  assert.equal(printed.schemaVersion, SCHEMA_VERSION);
  assert.equal(printed.tool.name, 'wsbench');
  assert.equal(printed.environment.cpuCores > 0, true);
  assert.deepEqual(
    printed.cells.map((c) => c.status),
    ['ok', 'skipped'],
  );
  const [cell] = printed.cells;
  assert.ok(cell && isMeasured(cell));
  assert.match(cell.measurements.histograms.rtt?.hdrBase64 ?? '', /^HISTFAAA/);
  assert.equal(
    printed.scenarios[0]?.metrics.rttP50Ms?.role,
    'primary-latency',
    'the declarations travel with the numbers',
  );
  assert.deepEqual(Object.keys(cell.params).sort(), [
    'arrivals',
    'binary',
    'connections',
    'deflate',
    'duration',
    'inflight',
    'messages',
    'payload',
    'rate',
    'ratePerConnection',
    'seed',
    'serverProcesses',
    'stages',
    'tls',
  ]);
});

test('the table shows a row per measured cell with the scenario columns and the server cost, n/a pairs below', async () => {
  const outcome = await runCli(
    runArgs('echo', 'ws', 'ws,socketio', '--duration', '200ms', '--out', join(tempDir(), 'r.json')),
  );
  assert.equal(outcome.code, 0, outcome.stderr);
  const lines = outcome.stdout.trimEnd().split('\n');
  assert.equal(
    lines[1],
    'every cell: closed loop, 1 conn x 1 in flight; connections=1 payload=32B binary=false inflight=1 messages=0 duration=200ms deflate=off tls=off serverProcesses=1',
  );
  assert.match(
    lines[2]!,
    /^server\s+client\s+status\s+p50 ms\s+p99 ms\s+max ms\s+msg\/s\s+srv µs\/msg\s+cli µs\/msg\s+srv KB\/conn\s+errors\s+srv CPU%\s+srv RSS MB$/,
  );
  assert.match(lines[3]!, /^ws\s+ws\s+ok(, [a-z ,]+)?\s+[\d.]+\s+[\d.]+/);
  assert.equal(lines[4], '');
  // Under the rows: what is not shown and why (a value below its resolution, in a cell this short), then the n/a pairs.
  assert.ok(lines.includes('n/a  ws x socketio: a websocket server cannot talk to a socket.io client'), outcome.stdout);
});
