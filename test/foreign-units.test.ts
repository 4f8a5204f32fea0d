import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeMetrics, NOT_REPORTED_BY_SERVER } from '../src/parent/measure/metric-values.js';
import { plainArgv, portSourceOf, printedPort } from '../src/parent/server-lifecycles/command-text.js';
import { urlWithParams } from '../src/parent/server-lifecycles/foreign-url.js';
import { counterDifference, parseStats } from '../src/parent/server-lifecycles/stats.js';
import tickerOrders from '../scenarios/ticker-orders.js';

test("where a command's port comes from is decided from its text alone", () => {
  assert.deepEqual(portSourceOf('python3 server.py --port {port}'), { from: 'placeholder' });
  assert.deepEqual(portSourceOf('python3 server.py --port 8000'), { from: 'command', port: 8000 });
  assert.deepEqual(portSourceOf('uvicorn app:app --port=0'), { from: 'output' });
  assert.deepEqual(portSourceOf('./server -p 9001'), { from: 'command', port: 9001 });
  assert.deepEqual(portSourceOf('./server --listen 127.0.0.1:9002'), { from: 'command', port: 9002 });
  assert.equal(portSourceOf('uvicorn app:app'), null);
  assert.equal(portSourceOf('python3 -m http.server 8000'), null, 'a bare number says nothing');
});

test('the port a server prints: host:port or "port N", never port 0', () => {
  assert.equal(printedPort('INFO:     Uvicorn running on http://127.0.0.1:43121 (Press CTRL+C to quit)'), 43121);
  assert.equal(printedPort('listening on [::1]:8080'), 8080);
  assert.equal(printedPort('Server started, port 9000'), 9000);
  assert.equal(printedPort('binding to 0.0.0.0:0'), null);
  assert.equal(printedPort('Started server process [12345]'), null);
});

test('plain commands start without a shell; shell syntax keeps /bin/sh', () => {
  assert.deepEqual(plainArgv(`python3 "my server.py" --port 8000 --name 'a b'`), [
    'python3',
    'my server.py',
    '--port',
    '8000',
    '--name',
    'a b',
  ]);
  assert.equal(plainArgv('cd examples && python3 s.py --port 1'), null);
  assert.equal(plainArgv('PYTHONOPTIMIZE=1 python3 s.py --port 1'), null);
  assert.equal(plainArgv('python3 s.py --port $PORT'), null);
});

test("a foreign server learns the cell's parameters from the query string", () => {
  const url = urlWithParams('ws://127.0.0.1:9/feed?token=x', 'fanout', {
    interval: 100,
    duration: 10_000,
    binary: false,
  });
  assert.equal(url, 'ws://127.0.0.1:9/feed?token=x&scenario=fanout&interval=100&duration=10000&binary=false');
});

test("stats: the window's counters are after minus before; a body without counters reports nothing", () => {
  assert.deepEqual(parseStats('{"counters":{"a":3,"b":"x","c":2.5}}'), { counters: { a: 3, c: 2.5 } });
  assert.deepEqual(parseStats('<html>'), { missing: 'GET /wsbench/stats did not answer JSON' });
  assert.deepEqual(counterDifference({ a: 10 }, { a: 25, b: 4 }), { a: 15, b: 4 });
});

test("a foreign server's stats report only what they list: other server metrics are null with the reason, never 0", () => {
  const values = computeMetrics(tickerOrders, {
    measurements: {
      histograms: {},
      latency: {},
      sizes: {},
      counters: { ordersSent: 5 },
      serverHistograms: {},
      serverLatency: {},
      serverCounters: { ticksBroadcast: 7 },
      windowMs: 1000,
    },
    params: { tickInterval: 10, connections: 1, symbols: 1, duration: 1000 },
    resources: { server: null, clients: [] },
    stackDrops: null,
    clientProcesses: 1,
    serverReported: 'listed',
  });
  assert.equal(values.metrics.ticksBroadcast, 7);
  assert.equal(values.metrics.ordersReceivedByServer, null);
  assert.equal(values.missing.ordersReceivedByServer, NOT_REPORTED_BY_SERVER);
  assert.equal(values.missing.serverTickTimerLagP99Ms, NOT_REPORTED_BY_SERVER);
});
