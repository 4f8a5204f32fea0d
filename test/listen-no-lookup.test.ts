/**
 * The addresses wsbench listens on (--dashboard, --metrics-listen,
 * --barrier-listen) are IP literals or localhost: a name is refused by its
 * spelling, one line and exit 2, and never looked up (a DNS query is traffic to
 * a machine the user never named). wsbench runs here under a tripwire that
 * prints every lookup through node:dns and fails it before it leaves the
 * machine; other bad input given beside a target's name is refused before the
 * name is looked up too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { runCli, usageErrorLine, BIN } from './support.js';
import { BarrierServer } from '../src/parent/shard/barrier-server.js';
import { checkShardOptions } from '../src/parent/shard/shard-options.js';
import { LiveViews, LiveBindError } from '../src/parent/live/live-views.js';
// In this process too: the library's own refusals are checked under the tripwire.
import { lookups } from './fixtures/dns-tripwire.js';

const TRIPWIRE = fileURLToPath(new URL('./fixtures/dns-tripwire.js', import.meta.url));
const RUN = ['run', 'echo', '--servers', 'ws', '--clients', 'ws', '--duration', '1s'];
const SHARD = [
  'run',
  'echo',
  '--target',
  'ws://127.0.0.1:9/',
  '--shard',
  '0/2',
  '--run-id',
  'r1',
  '--barrier',
  'http://127.0.0.1:9/',
];
const NO_NAME = 'is not an IP address or localhost: wsbench looks no name up here, give the address to listen on';

const cases: Array<[string, string[], string]> = [
  [
    'a dashboard on a name',
    [...RUN, '--dashboard', 'evil.example:80'],
    `wsbench: --dashboard: "evil.example" ${NO_NAME} (e.g. 127.0.0.1:8080)`,
  ],
  [
    'a dashboard on a bracketed name',
    [...RUN, '--dashboard', '[evil.example]:80'],
    `wsbench: --dashboard: "[evil.example]" ${NO_NAME} (e.g. 127.0.0.1:8080)`,
  ],
  [
    'metrics on a name',
    [...RUN, '--metrics-listen', 'evil.example:9464'],
    `wsbench: --metrics-listen: "evil.example" ${NO_NAME} (e.g. 127.0.0.1:9464)`,
  ],
  [
    'a barrier on a name',
    [...SHARD, '--barrier-listen', 'evil.example:7070'],
    `wsbench: --barrier-listen: "evil.example" ${NO_NAME} (e.g. 0.0.0.0:7070)`,
  ],
  [
    'a bad flag beside a target name',
    ['run', 'echo', '--target', 'ws://evil.example:9/', '--duration', 'nonsense'],
    'wsbench: --duration: "nonsense" is not a duration such as 500ms, 5s, 1m',
  ],
  [
    'a bad flag beside a barrier name',
    [
      'run',
      'echo',
      '--target',
      'ws://evil.example:9/',
      '--shard',
      '1/2',
      '--run-id',
      'r1',
      '--barrier',
      'http://evil.example:7070/',
      '--connections',
      '0',
    ],
    'wsbench: --connections: 0 is below the minimum 1',
  ],
];

for (const [name, args, expected] of cases) {
  test(`no lookup: ${name}`, async () => {
    const outcome = await runCli(args, { command: [process.execPath, '--import', TRIPWIRE, BIN] });
    assert.doesNotMatch(outcome.stderr, /dns tripwire/, 'no name was looked up');
    assert.equal(usageErrorLine(outcome), expected);
  });
}

test('no lookup: the library refuses a listen name before binding', async () => {
  await assert.rejects(
    new BarrierServer('r1', 2, 1000).listen('evil.example', 0),
    /barrier: cannot listen on evil.example: "evil.example" is not an IP address or localhost/,
  );
  const views = new LiveViews(
    { dashboard: { host: 'evil.example', port: 0 }, metrics: null, metricsLingerMs: 0 },
    () => undefined,
  );
  await assert.rejects(
    views.listen(),
    (error: unknown) =>
      error instanceof LiveBindError && /"evil.example" is not an IP address or localhost/.test(error.problem),
  );
  assert.throws(
    () =>
      checkShardOptions(
        {
          index: 0,
          count: 2,
          runId: 'r1',
          start: { mode: 'barrier', url: 'http://127.0.0.1:9/', listen: { host: 'evil.example', port: 7070 } },
        },
        ['t'],
        [{ kind: 'target', name: 't', protocol: 'websocket', url: 'ws://127.0.0.1:9/', tls: false }],
      ),
    /barrierListen: "evil.example" is not an IP address or localhost/,
  );
  assert.deepEqual(lookups, [], 'no name was looked up');
});
