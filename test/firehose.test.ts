/**
 * firehose in real processes, with fragments small enough that snapshots and
 * batched updates must arrive in many frames: what the client read off the wire
 * must agree, frame for frame and byte for byte, with what the server sent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run, type CellResult } from '../src/parent/index.js';
import { runCli } from './support.js';

/** A metric that must have a value. */
function metricValue(metrics: Readonly<Record<string, number | null>>, key: string): number {
  const value = metrics[key];
  assert.ok(typeof value === 'number', `${key} has no value`);
  return value;
}

function assertWireMatchesServer(cell: CellResult): void {
  const label = `${cell.server} x ${cell.client}`;
  if (cell.status !== 'ok') assert.fail(`${label}: ${cell.status}: ${cell.reason}`);
  const m = cell.metrics;
  const v = (key: string): number => metricValue(m, key);
  assert.ok(v('serverMessagesSent') > 13, `${label}: the feed streamed past its snapshots`);
  assert.equal(m.wireMessages, m.serverMessagesSent, `${label}: messages on the wire`);
  assert.equal(m.wireDataFrames, m.serverFramesSent, `${label}: frames on the wire`);
  assert.equal(m.wirePayloadBytes, m.serverBytesSent, `${label}: payload bytes on the wire`);
  assert.equal(m.rxMessages, m.wireMessages, `${label}: messages the stack delivered`);
  assert.equal(m.rxBytes, m.serverBytesSent, `${label}: bytes the stack delivered`);
  assert.equal(v('fastPathMessages') + v('assembledMessages'), m.wireMessages, `${label}: fast path + assembled`);
  assert.ok(v('assembledMessages') > 0, `${label}: some messages needed assembly`);
  // The largest message (a snapshot) must have come in exactly ceil(size / fragment) frames.
  assert.equal(m.framesPerMessageMax, Math.ceil(v('messageBytesMax') / (cell.params.fragmentSize as number)), label);
  assert.equal(m.receiveErrors, 0, label);
  assert.equal(m.closeEvents, 0, label);
  assert.equal(m.drainTimedOut, 0, label);
  assert.equal(m.txMessages, 2, `${label}: subscribe and unsubscribe`);
  assert.equal(cell.measurements.latency.assembly?.count, m.assembledMessages, label);
  assert.equal(m.stackDrops, cell.stackDrops, `${label}: one count of stack drops`);
}

for (const [name, server, client] of [
  ['ci preset, uws x ws: frame and message counts read from the wire match what the server sent', 'uws', 'ws'],
  ['ci preset, ws x undici: the same agreement through undici', 'ws', 'undici'],
] as const) {
  test(name, async () => {
    const result = await run({ scenario: 'firehose', servers: [server], clients: [client], preset: 'ci' });
    assert.equal(result.cells.length, 1);
    const [cell] = result.cells;
    assert.ok(cell);
    assertWireMatchesServer(cell);
  });
}

test('a bad fragment size exits 2 with one line', async () => {
  const outcome = await runCli(['run', 'firehose', '--fragment-size', '8q']);
  assert.equal(outcome.code, 2);
  assert.equal(outcome.stderr, 'wsbench: --fragment-size: "8q" is not a size such as 32, 4kb, 64KiB\n');
});
