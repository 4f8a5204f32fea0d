/**
 * Bad --dashboard and --metrics-listen input, and addresses that cannot be had:
 * the exact one line on stderr, exit 2, and nothing run (no result file).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir, usageErrorLine } from './support.js';

const RUN = ['run', 'echo', '--servers', 'ws', '--clients', 'ws', '--duration', '1s'];

function listening(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

function portOf(server: Server): number {
  return (server.address() as { port: number }).port;
}

async function refused(args: string[], expected: string): Promise<void> {
  const dir = tempDir();
  const out = join(dir, 'r.json');
  const outcome = await runCli([...RUN, ...args, '--out', out]);
  const line = usageErrorLine(outcome);
  assert.equal(line, expected);
  assert.equal(existsSync(out), false, 'nothing ran');
}

const cases: Array<[string, string[], string]> = [
  [
    'a dashboard address that is not one',
    ['--dashboard', 'nonsense'],
    'wsbench: --dashboard: "nonsense" is not HOST:PORT (e.g. 127.0.0.1:8080, or :0 for a free loopback port)',
  ],
  [
    'a metrics port out of range',
    ['--metrics-listen', '127.0.0.1:70000'],
    'wsbench: --metrics-listen: "127.0.0.1:70000" is not HOST:PORT (e.g. 127.0.0.1:9464, or :0 for a free loopback port)',
  ],
  ['--metrics-linger alone', ['--metrics-linger', '5s'], 'wsbench: --metrics-linger: only with --metrics-listen'],
  [
    'a linger that is not a duration',
    ['--metrics-listen', ':0', '--metrics-linger', 'soon'],
    'wsbench: --metrics-linger: "soon" is not a duration from 0s to 1h (e.g. 15s)',
  ],
  // A bind only asks the kernel: no packet leaves for this documentation-range address.
  [
    'an address of another machine',
    ['--dashboard', '192.0.2.1:0'],
    'wsbench: --dashboard: 192.0.2.1 is not an address of this machine',
  ],
];

for (const [name, args, expected] of cases) {
  test(`bad live-view input: ${name}`, () => refused(args, expected));
}

test('bad live-view input: a dashboard port in use', async () => {
  const taken = await listening();
  try {
    const port = portOf(taken);
    await refused(
      ['--dashboard', `:${port}`],
      `wsbench: --dashboard: 127.0.0.1:${port} is in use (port 0 picks a free one)`,
    );
  } finally {
    taken.close();
  }
});

test("bad live-view input: the metrics endpoint asked on the dashboard's port", async () => {
  const probe = await listening();
  const port = portOf(probe);
  await new Promise((resolve) => probe.close(resolve));
  await refused(
    ['--dashboard', `127.0.0.1:${port}`, '--metrics-listen', `127.0.0.1:${port}`],
    `wsbench: --metrics-listen: 127.0.0.1:${port} is in use (port 0 picks a free one)`,
  );
});
