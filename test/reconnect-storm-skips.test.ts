/**
 * reconnect-storm needs a server wsbench can restart: a --target is skipped
 * with the reason, as is a --server-cmd that picks its own port (it could not
 * come back where its clients reconnect); a restart that would not fit the
 * window is bad input, one line and exit 2.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocketServer } from 'ws';
import { run } from '../src/parent/index.js';
import { defineScenario } from '../src/shared/scenario-kit/index.js';
import { runCli } from './support.js';
import { fixtureCommand, newTag } from './foreign-processes.js';

const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('a --target is skipped: wsbench cannot restart a server it did not start', async () => {
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  const result = await run({
    scenario: 'reconnect-storm',
    targets: [{ name: 'mine', url: `ws://127.0.0.1:${port}/` }],
    clients: ['ws'],
    params: { connections: 2 },
  });
  assert.deepEqual(
    result.cells.map((c) => [c.status, 'reason' in c ? c.reason : '']),
    [['skipped', 'wsbench cannot restart a server it did not start']],
  );
});

test('a --server-cmd that prints its own port is skipped: it could not come back on the same port', async () => {
  const result = await run({
    scenario: 'reconnect-storm',
    serverCommands: [{ name: 'own-port', command: fixtureCommand('echo', newTag(), '0') }],
    clients: ['ws'],
  });
  const [cell] = result.cells;
  assert.equal(cell?.status, 'skipped');
  assert.equal(
    'reason' in cell! ? cell.reason : '',
    'a --server-cmd server that picks its own port cannot come back where its clients reconnect: put {port} in its command',
  );
});

test('a restart that does not fit the window is refused before anything starts', async () => {
  const outcome = await runCli([
    'run',
    'reconnect-storm',
    '--restart-at',
    '2s',
    '--downtime',
    '1s',
    '--duration',
    '3s',
  ]);
  assert.equal(outcome.code, 2);
  assert.equal(
    outcome.stderr,
    'wsbench: --duration: 3000ms ends before the server is back (restartAt 2000ms + downtime 1000ms)\n',
  );
});

test('a serverRestart declaration without both times is refused when the scenario is defined', () => {
  assert.throws(
    () =>
      defineScenario({
        name: 'half',
        description: 'x',
        parameters: {},
        serverRestart: { atMs: () => 10 } as never,
        client: async () => undefined,
        metrics: {},
        table: [],
      }),
    { message: 'scenario half: serverRestart must be { atMs(params), downtimeMs(params) }: two functions giving ms' },
  );
});

test('the engine refuses a declared restart outside the window, naming the times', async () => {
  const late = defineScenario({
    name: 'late-restart',
    description: 'x',
    parameters: {},
    duration: { default: '1s' },
    serverRestart: { atMs: () => 900, downtimeMs: () => 200 },
    server: () => ({}),
    client: async () => undefined,
    metrics: {},
    table: [],
  });
  await assert.rejects(run({ scenario: late, servers: ['ws'], clients: ['ws'] }), {
    name: 'ParameterError',
    message:
      'duration: 1000ms leaves no time after the server restart (killed at 900ms, down 200ms): the window must outlast it',
  });
});
