/**
 * A fault is never ok, in any scenario: every built-in scenario, run against a
 * server that drops every second handshake before answering it and against one
 * that answers 429 past a few handshakes, gives no `ok` cell. The servers are
 * real processes (test/fixtures/faulty-front-server.ts, a door in front of
 * wsbench's ws stack running the scenario's server half), started by
 * --server-cmd; windows are short and connections few. The same door without
 * a fault serves each scenario ok, so what the faulty ones get is the fault's.
 *
 * Slow (about a minute): every built-in scenario against two faulty servers and a healthy one, each a real cell.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { run, type CellResult } from '../src/parent/index.js';
import { builtInScenarios } from '../src/child/scenario-loader.js';

const FRONT = fileURLToPath(new URL('./fixtures/faulty-front-server.js', import.meta.url));

/**
 * Each scenario's short cell, and how few handshakes the rate-limited server lets through
 * (wsbench's own probe takes the first): below what the scenario opens, or it would be served whole.
 */
const CASES: Record<string, { params: Record<string, unknown>; limit: number }> = {
  echo: { params: { connections: 4, duration: '1s' }, limit: 3 },
  idle: { params: { connections: 6, interval: '200ms', duration: '1s' }, limit: 3 },
  churn: { params: { rate: 20, duration: '1s', handshakeTimeout: '2s' }, limit: 5 },
  // The window closes once every client is back; its end leaves a restarted front server (two node processes
  // started one after the other) time to serve on a loaded machine (in CI it took over 3.7 s once).
  'reconnect-storm': { params: { connections: 6, restartAt: '300ms', downtime: '200ms', duration: '12s' }, limit: 3 },
  fanout: { params: { connections: 6, interval: '50ms', duration: '1s' }, limit: 3 },
  chat: { params: { members: 4, duration: '1s' }, limit: 3 },
  firehose: { params: { duration: '1s', rate: 0 }, limit: 1 },
  'slow-consumer': { params: { connections: 6, slowShare: 0.34, duration: '500ms', interval: '20ms' }, limit: 3 },
  'ticker-orders': { params: { connections: 4, duration: '1s' }, limit: 3 },
  'push-vs-poll': {
    params: { test: 'continuous', pollInterval: '50ms', iterations: 4, duration: '600ms', samples: 3 },
    limit: 1,
  },
  pubsub: { params: { publishers: 1, subscribers: 4, topics: 2, rate: 40, duration: '1s' }, limit: 3 },
};

test('the table covers every built-in scenario', () => {
  assert.deepEqual(
    builtInScenarios().filter((name) => !(name in CASES)),
    [],
  );
});

// Three scenarios at a time: most of a cell is waiting for processes to start.
describe('every built-in scenario against faulty servers', { concurrency: 3 }, () => {
  for (const [scenario, { params, limit }] of Object.entries(CASES)) {
    test(`${scenario}: no cell is ok against a server that drops every second handshake, nor one that answers 429; the same server without faults is`, {
      timeout: 120_000,
    }, async () => {
      const front = (options: string): string => `${process.execPath} ${FRONT} --port {port} ${options}`;
      const result = await run({
        scenario: scenario as 'echo',
        serverCommands: [
          { name: 'drops', command: front('--drop-every 2') },
          // A window longer than any cell: the handshakes past the limit are refused however slow the machine.
          { name: 'limits', command: front(`--limit ${limit} --window-ms 60000`) },
          { name: 'serves', command: front('') },
        ],
        clients: ['ws'],
        params: params as never,
      });
      const [drops, limits, serves] = result.cells;
      assert.equal(serves?.status, 'ok', describeCell(serves!));
      for (const cell of [drops!, limits!])
        assert.ok(cell.status === 'errors' || cell.status === 'failed', describeCell(cell));
    });
  }
});

function describeCell(cell: CellResult): string {
  const reason = 'reason' in cell ? cell.reason : '';
  const counters = 'measurements' in cell && cell.measurements ? JSON.stringify(cell.measurements.counters) : '';
  return `${cell.server}: ${cell.status} ${reason} ${counters}`;
}
