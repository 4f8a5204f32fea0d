/**
 * wsbench killed with SIGKILL during a browser cell: nothing it could run
 * survives it, so Chromium's processes (the browser leads a process group of
 * its own, out of wsbench's) are ended by the engine's watchdog, which kills
 * that group once the client process that started it is gone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { groupEmpties, processGroupMembers, startCli } from './live-cli.js';
import { tempDir } from './support.js';
import { browserProcessesOf, clientPids, NO_CHROMIUM, untilNone } from './browser-support.js';

test('SIGKILL of wsbench during a browser cell leaves no Chromium process', {
  skip: NO_CHROMIUM,
  timeout: 120_000,
}, async () => {
  const out = join(tempDir(), 'r.json');
  const cli = startCli(['run', 'echo', '--servers', 'ws', '--clients', 'browser', '--duration', '60s', '--out', out], {
    ownProcessGroup: true,
    timeoutMs: 100_000,
  });
  let clients: number[] = [];
  try {
    await cli.waitForStderr(/echo ws x browser .*started/, 60_000);
    // The browser is up once its processes show; the window is open once the page has connected.
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      clients = clientPids(processGroupMembers(cli.pid));
      if (clients.length > 0 && clients.some((pid) => browserProcessesOf(pid).length >= 3)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(
      clients.some((pid) => browserProcessesOf(pid).length >= 3),
      'the browser started',
    );
    process.kill(cli.pid, 'SIGKILL');
    await cli.finished;
  } finally {
    if (cli.child.exitCode === null && cli.child.signalCode === null) process.kill(-cli.pid, 'SIGKILL');
  }
  assert.deepEqual(await groupEmpties(cli.pid, 10_000), [], "no child of wsbench's group outlives it");
  assert.deepEqual(
    await untilNone(() => clients.flatMap(browserProcessesOf), 10_000),
    [],
    'no Chromium process outlives it',
  );
});
