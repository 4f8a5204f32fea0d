import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMeasured, run, type BenchResult } from '../src/parent/index.js';
import { buildOrderBookFeed } from '../scenarios/firehose/order-book-feed.js';
import { runCli, tempDir } from './support.js';
import { PYTHON_EXAMPLES, pythonSkip, venvPython } from './python-support.js';

const skip = pythonSkip();
const server = (file: string): string => `${venvPython()} ${join(PYTHON_EXAMPLES, file)} --port {port}`;

test('the Python websockets server beside uws: both rows, each with server CPU and RSS', { skip }, async () => {
  const out = join(tempDir(), 'r.json');
  const outcome = await runCli([
    'run',
    'echo',
    '--server-cmd',
    `py=${server('websockets_server.py')}`,
    '--servers',
    'uws',
    '--clients',
    'ws',
    '--duration',
    '1s',
    '--out',
    out,
  ]);
  assert.equal(outcome.code, 0, outcome.stderr);
  const rows = outcome.stdout.split('\n').filter((line) => /^(uws|py)\s/.test(line));
  assert.equal(rows.length, 2, outcome.stdout);
  for (const row of rows) assert.match(row, /\s\d+\s+\d+$/, `server CPU and RSS in: ${row}`);
  const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
  for (const cell of result.cells) {
    assert.ok(cell.status === 'ok' && isMeasured(cell), `${cell.server}: ${'reason' in cell ? cell.reason : ''}`);
    assert.ok(
      cell.resources.server && cell.resources.server.rssBytes.max > 5 * 1024 * 1024,
      `${cell.server} server RSS`,
    );
  }
});

test('the Python websockets server speaks ticker-orders: its counters come from its stats route, the rest is null, never 0', {
  skip,
}, async () => {
  const result = await run({
    scenario: 'ticker-orders',
    serverCommands: [{ name: 'py', command: server('websockets_server.py') }],
    clients: ['ws'],
    params: { duration: '1s', connections: 2 },
  });
  const [cell] = result.cells;
  assert.ok(
    cell?.status === 'ok' && isMeasured(cell),
    `${cell?.status}: ${cell && 'reason' in cell ? cell.reason : ''}`,
  );
  const m = cell.metrics;
  assert.ok((m.ticksReceived ?? 0) > 20, `ticks ${m.ticksReceived}`);
  assert.equal(m.ordersSent, m.ticksReceived, 'one order per tick');
  assert.equal((m.ordersAcked ?? 0) + (m.ordersUnanswered ?? 0), m.ordersSent);
  assert.ok((m.ticksBroadcast ?? 0) > 0, 'ticks counted by the server itself');
  assert.equal(m.ordersReceivedByServer, m.ordersSent, 'the server counted every order');
  assert.equal(m.serverTickTimerLagP99Ms, null);
  assert.equal(cell.missing.serverTickTimerLagP99Ms, 'the server did not report it');
});

/** Every scenario each reference server implements, with parameters small enough for a test. */
const SERVED: Array<[file: string, scenario: string, params: Record<string, unknown>]> = [
  [
    'websockets_server.py',
    'chat',
    { members: 3, rate: 60, duration: '600ms', queue: ['unlimited', 'bounded'], moderatorDelay: '5ms' },
  ],
  ['websockets_server.py', 'fanout', { connections: 5, interval: '50ms', duration: '500ms' }],
  ['websockets_server.py', 'firehose', { duration: '600ms', fragmentSize: '1KiB' }],
  ['tornado_server.py', 'echo', { duration: '500ms' }],
  ['tornado_server.py', 'ticker-orders', { duration: '600ms' }],
  ['tornado_server.py', 'fanout', { connections: 5, interval: '50ms', duration: '500ms' }],
  ['starlette_server.py', 'echo', { duration: '500ms' }],
  ['starlette_server.py', 'fanout', { connections: 5, interval: '50ms', duration: '500ms' }],
  [
    'starlette_server.py',
    'push-vs-poll',
    { test: ['continuous', 'sustained'], iterations: 5, duration: '500ms', samples: 5 },
  ],
];

for (const [file, scenario, params] of SERVED) {
  test(`${file} answers ${scenario} by its protocol`, { skip }, async () => {
    const result = await run({
      scenario,
      serverCommands: [{ name: 'py', command: server(file) }],
      clients: ['ws'],
      params,
    });
    for (const cell of result.cells) {
      assert.equal(cell.status, 'ok', `${JSON.stringify(cell.params)}: ${'reason' in cell ? cell.reason : ''}`);
      assert.ok(isMeasured(cell));
      for (const [key, value] of Object.entries(cell.metrics)) {
        const info = result.scenarios[0]!.metrics[key]!;
        if (info.role === 'errors' && value !== null) assert.equal(value, 0, `${scenario} ${key}`);
      }
      // The protocol's frame count, ceil(length / fragmentSize), is what the wire carries (no empty final frame).
      if (scenario === 'firehose')
        assert.equal(
          cell.metrics.wireDataFrames,
          cell.metrics.serverFramesSent,
          'frames on the wire = frames the server says it sent',
        );
    }
  });
}

test("the Python firehose feed is byte for byte the one wsbench's own servers send", { skip }, () => {
  const python = execFileSync(venvPython(), [join(PYTHON_EXAMPLES, 'wsbench_protocol.py'), 'feed'], {
    encoding: 'utf8',
  }).trim();
  const feed = buildOrderBookFeed();
  const node = createHash('sha256')
    .update([...feed.snapshots, ...feed.updates].map((m) => m.text).join('\n'))
    .digest('hex');
  assert.equal(python, node);
});
