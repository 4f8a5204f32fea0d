/**
 * Bad shard flags: the exact one line on stderr, exit 2, nothing started. The
 * target URLs are never contacted: every check runs before anything starts,
 * and a barrier of another run refuses a shard before its first cell.
 *
 * Slow (about 40 s): each refused flag is a real wsbench start, and the barrier cases start shards.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, usageErrorLine } from './support.js';
import { BarrierServer } from '../src/parent/shard/barrier-server.js';

const TARGET = ['--target', 'ws://127.0.0.1:9/'];
const BARRIER = ['--barrier', 'http://127.0.0.1:9/'];

const cases: Array<[string, string[], string, NodeJS.ProcessEnv?]> = [
  [
    '--shard without --target',
    ['--shard', '0/2', '--run-id', 'r1', ...BARRIER],
    'wsbench: --shard: needs --target URL: every shard loads the same server, which runs elsewhere',
  ],
  [
    '--shard without --run-id',
    ['--shard', '0/2', ...TARGET, ...BARRIER],
    'wsbench: --shard: needs --run-id ID, the same on every shard of the run',
  ],
  [
    'an index that is not below N',
    ['--shard', '2/2', '--run-id', 'r1', ...TARGET, ...BARRIER],
    'wsbench: --shard: index 2 is not below N = 2 (shards count from 0 to 1)',
  ],
  [
    'N below 1',
    ['--shard', '0/0', '--run-id', 'r1', ...TARGET, ...BARRIER],
    'wsbench: --shard: N is 0: a run has at least 1 shard',
  ],
  [
    'a shard that is not I/N',
    ['--shard', '1of2', '--run-id', 'r1', ...TARGET, ...BARRIER],
    'wsbench: --shard: "1of2" is not I/N (e.g. 0/4, or env:JOB_COMPLETION_INDEX/4)',
  ],
  [
    'an index read from an unset environment variable',
    ['--shard', 'env:WSBENCH_TEST_UNSET_INDEX/4', '--run-id', 'r1', ...TARGET, ...BARRIER],
    'wsbench: --shard: environment variable WSBENCH_TEST_UNSET_INDEX is not set',
  ],
  [
    'an index read from an environment variable that is not a number',
    ['--shard', 'env:WSBENCH_TEST_INDEX/4', '--run-id', 'r1', ...TARGET, ...BARRIER],
    'wsbench: --shard: environment variable WSBENCH_TEST_INDEX is "two", not a shard index',
    { WSBENCH_TEST_INDEX: 'two' },
  ],
  [
    'an index from the environment that is not below N',
    ['--shard', 'env:WSBENCH_TEST_INDEX/4', '--run-id', 'r1', ...TARGET, ...BARRIER],
    'wsbench: --shard: index 4 is not below N = 4 (shards count from 0 to 3)',
    { WSBENCH_TEST_INDEX: '4' },
  ],
  [
    'no way to line the windows up',
    ['--shard', '0/2', '--run-id', 'r1', ...TARGET],
    "wsbench: --shard: needs --start-at TIME or --barrier URL, to open the shards' windows together",
  ],
  [
    'both --start-at and --barrier',
    ['--shard', '0/2', '--run-id', 'r1', ...TARGET, ...BARRIER, '--start-at', '1900000000000'],
    'wsbench: --start-at and --barrier: give one of them',
  ],
  [
    'a start time that is not one',
    ['--shard', '0/2', '--run-id', 'r1', ...TARGET, '--start-at', 'soon'],
    'wsbench: --start-at: "soon" is not an ISO time (2030-01-01T12:00:00Z) or epoch milliseconds',
  ],
  [
    'a start time days away',
    ['--shard', '0/2', '--run-id', 'r1', ...TARGET, '--start-at', '2999-01-01T00:00:00Z'],
    'wsbench: --start-at: 2999-01-01T00:00:00.000Z is more than 24 hours away',
  ],
  ['--run-id without --shard', ['--run-id', 'r1', ...TARGET], 'wsbench: --run-id: only with --shard I/N'],
  [
    'a run id with a space',
    ['--shard', '0/2', '--run-id', 'my run', ...TARGET, ...BARRIER],
    'wsbench: --run-id: "my run" is not a run id: 1 to 128 letters, digits, ".", "_", ":" or "-", starting with a letter or digit',
  ],
  [
    'a barrier that is not http://',
    ['--shard', '0/2', '--run-id', 'r1', ...TARGET, '--barrier', 'ws://127.0.0.1:9/'],
    'wsbench: --barrier: "ws://127.0.0.1:9/" is not an http:// URL',
  ],
  [
    'a listen address without a port',
    ['--shard', '0/2', '--run-id', 'r1', ...TARGET, ...BARRIER, '--barrier-listen', '0.0.0.0'],
    'wsbench: --barrier-listen: "0.0.0.0" is not HOST:PORT (e.g. 0.0.0.0:7070)',
  ],
  [
    'a barrier timeout without a unit',
    ['--shard', '0/2', '--run-id', 'r1', ...TARGET, ...BARRIER, '--barrier-timeout', '30'],
    'wsbench: --barrier-timeout: "30" is not a duration such as 30s, 2m',
  ],
  [
    'a shard that would get no connection',
    ['--shard', '1/2', '--run-id', 'r1', ...TARGET, ...BARRIER, '--connections', '1'],
    'wsbench: --connections: 1 spread over 2 shards of 1 client process leaves shard 1 with none: it would measure nothing (give at least 2, or fewer shards)',
  ],
  [
    'shards that would get no connection, with several client processes each',
    ['--shard', '0/4', '--run-id', 'r1', ...TARGET, ...BARRIER, '--connections', '1,10', '--client-procs', '3'],
    'wsbench: --connections: 1 spread over 4 shards of 3 client processes leaves shards 1 to 3 with none: it would measure nothing (give at least 10, or fewer shards)',
  ],
  [
    'a built-in server beside the target',
    ['--shard', '0/2', '--run-id', 'r1', ...TARGET, ...BARRIER, '--servers', 'ws,127.0.0.1:9'],
    'wsbench: --shard: every server of a sharded run must be a target that runs elsewhere, the same for every shard (not one: ws)',
  ],
  [
    'a server started by command',
    [
      '--shard',
      '0/2',
      '--run-id',
      'r1',
      ...TARGET,
      ...BARRIER,
      '--server-cmd',
      `py=${process.execPath} x.js --port {port}`,
    ],
    'wsbench: --shard: every server of a sharded run must be a target that runs elsewhere, the same for every shard (not one: py)',
  ],
];

for (const [name, args, expected, env] of cases) {
  test(`bad shard input: ${name}`, async () => {
    const outcome = await runCli(['run', 'fanout', ...args], env ? { env } : {});
    const line = usageErrorLine(outcome);
    assert.equal(line, expected);
  });
}

test('bad shard input: a shard of another run is refused by the barrier, in one line', async () => {
  const barrier = new BarrierServer('run-a', 2, 60_000);
  const { port } = await barrier.listen('127.0.0.1', 0);
  try {
    const url = `http://127.0.0.1:${port}`;
    const outcome = await runCli([
      'run',
      'fanout',
      '--shard',
      '1/2',
      '--run-id',
      'run-b',
      ...TARGET,
      '--barrier',
      url,
      '--clients',
      'ws',
    ]);
    assert.equal(outcome.code, 2, outcome.stderr);
    assert.equal(
      outcome.stderr.trimEnd(),
      `wsbench: barrier ${url} refused shard 1: this barrier serves run run-a, not run-b`,
    );
  } finally {
    await barrier.close();
  }
});
