/**
 * Shard 0's barrier, on loopback: shards checked in are released together and
 * not before the last one; a shard that never comes is named missing after the
 * timeout, is told so when it turns up late, and is not waited for again; a
 * shard that withdraws is not waited for; another run id is refused; the time
 * probe finds a small offset on one host.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { BarrierServer } from '../src/parent/shard/barrier-server.js';
import { BarrierClient, BarrierRunMismatch } from '../src/parent/shard/barrier-client.js';
import { CHECK_IN_PATH, type Release } from '../src/parent/shard/barrier-protocol.js';
import { UsageError } from '../src/shared/types/errors.js';

const servers: BarrierServer[] = [];
after(() => Promise.allSettled(servers.map((s) => s.close())));

async function barrier(
  runId: string,
  count: number,
  timeoutMs: number,
): Promise<{ server: BarrierServer; url: string }> {
  const server = new BarrierServer(runId, count, timeoutMs);
  servers.push(server);
  const address = await server.listen('127.0.0.1', 0);
  return { server, url: `http://127.0.0.1:${address.port}` };
}

const signal = new AbortController().signal;
/** Settles to the release, or to 'pending' if it has not come by the next few turns of the event loop. */
async function stateOf(promise: Promise<Release>): Promise<Release | 'pending'> {
  return Promise.race([promise, new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), 50))]);
}

test('shards that check in are held until the last one arrives, then released together', async () => {
  const { url } = await barrier('run-a', 3, 60_000);
  const clients = [0, 1, 2].map((shard) => new BarrierClient(url, 'run-a', 3, shard, 10_000));
  const first = clients[0]!.checkIn(0, 0, signal);
  const second = clients[1]!.checkIn(0, 0, signal);
  assert.equal(await stateOf(first), 'pending');
  assert.equal(await stateOf(second), 'pending');
  const third = clients[2]!.checkIn(0, 0, signal);
  const releases = await Promise.all([first, second, third]);
  for (const release of releases) assert.deepEqual(release.missing, []);
  // The next cell round is a barrier of its own.
  const next = clients[0]!.checkIn(1, 0, signal);
  assert.equal(await stateOf(next), 'pending');
  await Promise.all([next, clients[1]!.checkIn(1, 0, signal), clients[2]!.checkIn(1, 0, signal)]);
});

test('a shard that never comes is named missing after the timeout, refused when late, and not waited for again', async () => {
  const { server, url } = await barrier('run-b', 3, 300);
  const clients = [0, 1, 2].map((shard) => new BarrierClient(url, 'run-b', 3, shard, 10_000));
  const releases = await Promise.all([clients[0]!.checkIn(0, 0, signal), clients[1]!.checkIn(0, 0, signal)]);
  for (const release of releases) {
    assert.deepEqual(release.missing, [2]);
    assert.ok(release.waitedMs >= 250, `waited ${release.waitedMs} ms of a 300 ms timeout`);
  }
  await assert.rejects(clients[2]!.checkIn(0, 0, signal), /released the other shards .* without shard 2/);
  // In process (shard 0's own path) the refusal is a rejection too, never a throw.
  await assert.rejects(
    server.checkIn({ runId: 'run-b', count: 3, shard: 2, cell: 0, round: 0, withdraw: 'late' }),
    /without shard 2/,
  );
  // Cell 1: shard 2 missed cell 0, so shards 0 and 1 go at once, naming it again.
  const next = await Promise.all([clients[0]!.checkIn(1, 0, signal), clients[1]!.checkIn(1, 0, signal)]);
  for (const release of next) {
    assert.deepEqual(release.missing, [2]);
    assert.ok(release.waitedMs < release.timeoutMs);
  }
});

test('a shard that withdraws from a cell is not waited for, and its reason reaches the others', async () => {
  const { server } = await barrier('run-c', 2, 60_000);
  void server.checkIn({ runId: 'run-c', count: 2, shard: 1, cell: 0, round: 0, withdraw: 'client ws unavailable' });
  const release = await server.checkIn({ runId: 'run-c', count: 2, shard: 0, cell: 0, round: 0 });
  assert.deepEqual(release.missing, []);
  assert.deepEqual(release.withdrawn, [{ shard: 1, reason: 'client ws unavailable' }]);
});

test('a shard of another run, or with another shard count, is refused in one line (a usage error)', async () => {
  const { url } = await barrier('run-d', 2, 60_000);
  const stranger = new BarrierClient(url, 'run-other', 2, 1, 5000);
  const error = await stranger.estimateClock(signal).then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(error instanceof BarrierRunMismatch && error instanceof UsageError, String(error));
  assert.equal(
    (error as Error).message,
    `barrier ${url} refused shard 1: this barrier serves run run-d, not run-other`,
  );
  await assert.rejects(stranger.checkIn(0, 0, signal), BarrierRunMismatch);
  const miscounted = new BarrierClient(url, 'run-d', 3, 1, 5000);
  await assert.rejects(miscounted.checkIn(0, 0, signal), /run run-d has 2 shards, not 3/);
  // Over plain HTTP, the refusal is a 409.
  const response = await fetch(`${url}/wsbench/barrier/time?run=run-other&count=2`);
  assert.equal(response.status, 409);
});

test('the time probe finds a small clock offset on one host', async () => {
  const { url } = await barrier('run-e', 2, 60_000);
  const estimate = await new BarrierClient(url, 'run-e', 2, 1, 5000).estimateClock(signal);
  assert.ok(estimate.rttMs > 0);
  // Shard 0 read its clocks between the probe's send and its answer: the offset lies within half the round trip.
  assert.ok(Math.abs(estimate.monotonicOffsetMs) <= estimate.rttMs / 2 + 0.001, JSON.stringify(estimate));
  assert.ok(Math.abs(estimate.offsetMs) <= estimate.rttMs / 2 + 0.001, JSON.stringify(estimate));
});

test('a barrier that cannot be reached fails after its timeout, naming it', async () => {
  const { server, url } = await barrier('run-f', 2, 60_000);
  await server.close();
  const client = new BarrierClient(url, 'run-f', 2, 1, 1200);
  await assert.rejects(
    client.checkIn(0, 0, signal),
    new RegExp(`barrier ${url}: not reachable for 1 s \\(ECONNREFUSED\\); is shard 0 running\\?`),
  );
});

test('a check-in that is not application/json is refused (415): no page can send one cross-site without a preflight', async () => {
  const { url } = await barrier('run-g', 2, 60_000);
  const body = JSON.stringify({ runId: 'run-g', count: 2, shard: 1, round: 0 });
  const response = await fetch(`${url}${CHECK_IN_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body,
  });
  assert.equal(response.status, 415);
});
