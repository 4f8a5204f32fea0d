import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMeasured, run } from '../src/parent/index.js';
import { alive, childrenOf, commandOf, runCli, tempDir } from './support.js';

const MISBEHAVING = fileURLToPath(new URL('./fixtures/misbehaving-server.js', import.meta.url));

test('a server that throws fails its cell with the error message, not a line of its source', async () => {
  const result = await run({
    scenario: MISBEHAVING,
    servers: ['ws'],
    clients: ['ws'],
    params: { fault: 'throw', duration: '1s' },
  });
  const [cell] = result.cells;
  assert.equal(cell?.status, 'failed');
  // The message, then when it happened and the time the rates are over, where known.
  assert.match(
    cell.reason,
    /^server: crashed: the order book is empty( \(\d+\.\d\d s into the window\)(; rates are over the \d+\.\d\d s the traffic ran)?)?$/,
  );
  assert.ok(isMeasured(cell), 'what the clients measured is kept');
});

test('uws: replying on a connection the client already closed returns false instead of killing the server', async () => {
  const result = await run({
    scenario: MISBEHAVING,
    servers: ['uws'],
    clients: ['ws'],
    params: { fault: 'late-reply', connections: 8, duration: '1s' },
  });
  const [cell] = result.cells;
  if (cell?.status !== 'ok') return assert.fail(`cell ${cell?.status}: ${cell?.reason}`);
  assert.notEqual(cell.stackDrops, null, 'the server reported at the end');
  assert.ok((cell.measurements.counters.closedEarly ?? 0) > 8, 'many connections closed before their reply');
});

test('a child stuck in a busy loop dies when wsbench is SIGKILLed', async () => {
  const seen = new Set<number>();
  let cliPid = 0;
  const finished = runCli(
    [
      'run',
      MISBEHAVING,
      '--fault',
      'spin',
      '--servers',
      'ws',
      '--clients',
      'ws',
      '--duration',
      '30s',
      '--out',
      join(tempDir(), 'r.json'),
    ],
    {
      onSpawn(pid) {
        cliPid = pid;
      },
    },
  );
  // Until the server and client processes run (wsbench's first children are the bun and deno version probes,
  // which alone ended a wait for any two), then until the server has spun for a while.
  const cellUp = (): boolean =>
    ['server-process', 'client-process'].every((role) => [...seen].some((pid) => commandOf(pid).includes(role)));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && !cellUp()) {
    for (const child of childrenOf(cliPid)) seen.add(child);
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.ok(cellUp(), 'server and client started');
  await new Promise((r) => setTimeout(r, 1000));
  process.kill(cliPid, 'SIGKILL');
  await finished;
  const until = Date.now() + 3000;
  while (Date.now() < until && [...seen].some(alive)) await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual([...seen].filter(alive), [], 'no child outlives wsbench');
});

test("a server stuck in a busy loop fails the cell as hung, with the evidence, and the clients' numbers are kept", async () => {
  process.env.WSBENCH_SERVER_REPORT_TIMEOUT_MS = '2000';
  try {
    const result = await run({
      scenario: MISBEHAVING,
      servers: ['ws'],
      clients: ['ws'],
      params: { fault: 'spin', duration: '3s' },
    });
    const [cell] = result.cells;
    if (cell?.status !== 'failed') return assert.fail(`cell ${cell?.status}, not failed`);
    assert.match(
      cell.reason,
      /^server hung: CPU (demand )?\d+% of a core .*through the window.*no client counter moved in the last \d+\.\d s of the window/,
    );
    assert.ok(isMeasured(cell) && (cell.metrics.received ?? 0) > 0, "the clients' numbers are kept");
  } finally {
    delete process.env.WSBENCH_SERVER_REPORT_TIMEOUT_MS;
  }
});
