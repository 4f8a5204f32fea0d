/**
 * serverProcesses: a built-in server stack as several processes on one port
 * (SO_REUSEPORT). Real processes: the kernel spreads the connections, the
 * orchestrator relays what one process tells its siblings, and the cell reads
 * as one server. Stacks and scenarios that cannot do it are n/a with the reason.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run, type CellResult } from '../src/parent/index.js';
import { openFileLimit } from '../src/shared/open-file-limit.js';
import siblings from './fixtures/sibling-scenario.js';
import { connectPhaseProblem } from '../src/shared/scenario-kit/index.js';
import { NODE_SHARES_PORTS } from '../src/child/runtimes/reuse-port.js';

/** ws and socket.io listen through node:net, which shares a port from Node 22.12 on (probed). */
const NODE_STACKS = ['ws', 'socketio'];
const SHARING_STACKS = ['uws', 'bun', 'deno', ...(NODE_SHARES_PORTS ? NODE_STACKS : [])];

test('three server processes share one port: every one gets connections and hears the first', async () => {
  const result = await run({
    scenario: siblings,
    servers: SHARING_STACKS,
    clients: ['ws'],
    params: { serverProcesses: 3, connections: 60 },
  });
  for (const cell of result.cells) {
    if (cell.status === 'skipped') continue; // a runtime missing here (Bun, Deno) is n/a, tested elsewhere
    if (cell.status !== 'ok') assert.fail(`${cell.server}: ${cell.status}: ${cell.reason}`);
    const counters = cell.measurements.serverCounters;
    assert.equal(cell.metrics.opened, 60, cell.server);
    assert.equal(counters.processes, 3, `${cell.server}: every process opened its window`);
    assert.equal(counters.toldByFirst, 2, `${cell.server}: both siblings heard the first, the first not itself`);
    const spread = [0, 1, 2].map((i) => counters[`connectionsAtProcess${i}`] ?? 0);
    assert.equal(
      spread.reduce((a, b) => a + b, 0),
      60,
      `${cell.server}: ${spread}`,
    );
    // 60 connections hashed over 3 listeners: one left empty by chance is about 3 x (2/3)^60, never.
    for (const count of spread) assert.ok(count > 0, `${cell.server}: connections per process ${spread}`);
  }
  assert.ok(
    result.cells.some((c) => c.server === 'uws' && c.status === 'ok'),
    'uws ran',
  );
});

test('fanout on two uws processes: every tick reaches every client, the server counted as one', async () => {
  const params = { connections: 200, interval: '50ms', duration: '500ms', serverProcesses: 2 } as const;
  const result = await run({ scenario: 'fanout', servers: ['uws'], clients: ['ws'], clientProcesses: 2, params });
  const [cell] = result.cells;
  if (cell?.status !== 'ok') assert.fail(`${cell?.status}: ${cell?.reason}`);
  const ticks = 10;
  assert.equal(cell.metrics.missing, 0);
  assert.equal(cell.metrics.errors, 0);
  assert.equal(cell.metrics.received, ticks * 200);
  assert.equal(cell.metrics.ticksSent, ticks, 'ticks are counted once, not once per process');
  assert.equal(
    cell.metrics.messagesSentByServer,
    ticks * 200,
    'the processes together sent each tick to each connection',
  );
  assert.ok(cell.resources.server, 'both processes sampled as one server');
});

test('stacks that cannot share a port, foreign servers and single-process scenarios are n/a with the reason', async () => {
  const echo = await run({
    scenario: 'echo',
    servers: ['ws', 'socketio'],
    clients: ['ws', 'socketio'],
    params: { serverProcesses: 2, duration: '200ms' },
  });
  const noReusePort = `the net module of Node ${process.versions.node} cannot listen with SO_REUSEPORT; Node 22.12 and later can`;
  assert.deepEqual(
    outcomes(echo.cells.filter((c) => c.status === 'skipped')),
    [
      ...(NODE_SHARES_PORTS
        ? []
        : NODE_STACKS.map(
            (name) =>
              `skipped: serverProcesses=2: the ${name} server cannot share one port between processes (${noReusePort})`,
          )),
      'skipped: a websocket server cannot talk to a socket.io client',
      'skipped: a socket.io server cannot talk to a websocket client',
    ].sort(),
  );
  const chat = await run({
    scenario: 'chat',
    servers: ['uws'],
    clients: ['ws'],
    preset: 'ci',
    params: { serverProcesses: 2 },
  });
  assert.deepEqual(outcomes(chat.cells), ['skipped: serverProcesses=2: chat keeps its server state in one process']);
  // Never started: the command would fail at once if it were.
  const command = await run({
    scenario: 'echo',
    serverCommands: [{ name: 'mine', command: 'false {port}' }],
    clients: ['ws'],
    params: { serverProcesses: 2 },
  });
  assert.deepEqual(outcomes(command.cells), [
    'skipped: serverProcesses=2: a --target or --server-cmd server runs as it was started',
  ]);
});

/** Each distinct status and reason, sorted. */
function outcomes(cells: CellResult[]): string[] {
  return [...new Set(cells.map((c) => `${c.status}: ${'reason' in c ? c.reason : ''}`))].sort();
}

test('the open-file check counts connections per server process', () => {
  const limit = openFileLimit();
  if (limit === null) return;
  const phase = { connections: 3 * (limit - 1000), connectRate: 100_000, connectTimeout: 1000, sourceAddresses: 250 };
  const alone = connectPhaseProblem(phase);
  assert.equal(alone?.parameter, 'connections');
  assert.match(
    alone!.message,
    /open files in the server process .*; --server-processes N spreads them over N processes$/,
  );
  assert.equal(connectPhaseProblem({ ...phase, serverProcesses: 4 }), null);
  assert.match(
    connectPhaseProblem({ ...phase, serverProcesses: 2 })!.message,
    / open files in each of the 2 server processes /,
  );
});
