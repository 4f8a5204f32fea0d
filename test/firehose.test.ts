/**
 * firehose in real processes, with fragments small enough that snapshots and
 * batched updates must arrive in many frames: what the client read off the wire
 * must agree, frame for frame and byte for byte, with what the server sent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run, type CellResult } from '../src/index.js';
import { runCli } from './support.js';

function assertWireMatchesServer(cell: CellResult): void {
  const m = cell.metrics!;
  const label = `${cell.server} x ${cell.client}`;
  assert.equal(cell.status, 'ok', `${label}: ${cell.reason}`);
  assert.ok((m.serverMessagesSent ?? 0) > 13, `${label}: the feed streamed past its snapshots`);
  assert.equal(m.wireMessages, m.serverMessagesSent, `${label}: messages on the wire`);
  assert.equal(m.wireDataFrames, m.serverFramesSent, `${label}: frames on the wire`);
  assert.equal(m.wirePayloadBytes, m.serverBytesSent, `${label}: payload bytes on the wire`);
  assert.equal(m.rxMessages, m.wireMessages, `${label}: messages the stack delivered`);
  assert.equal(m.rxBytes, m.serverBytesSent, `${label}: bytes the stack delivered`);
  assert.equal(m.fastPathMessages! + m.assembledMessages!, m.wireMessages, `${label}: fast path + assembled`);
  assert.ok(m.assembledMessages! > 0, `${label}: some messages needed assembly`);
  // The largest message (a snapshot) must have come in exactly ceil(size / fragment) frames.
  assert.equal(m.framesPerMessageMax, Math.ceil(m.messageBytesMax! / (cell.params.fragmentSize as number)), label);
  assert.equal(m.receiveErrors, 0, label);
  assert.equal(m.closeEvents, 0, label);
  assert.equal(m.drainTimedOut, 0, label);
  assert.equal(m.txMessages, 2, `${label}: subscribe and unsubscribe`);
  assert.equal(cell.measurements!.latency.assembly!.count, m.assembledMessages, label);
}

test('ci preset, uws x ws: frame and message counts read from the wire match what the server sent', async () => {
  const result = await run({ scenario: 'firehose', servers: ['uws'], clients: ['ws'], preset: 'ci' });
  assert.equal(result.cells.length, 1);
  assertWireMatchesServer(result.cells[0]!);
});

test('ci preset, ws x undici: the same agreement through undici', async () => {
  const result = await run({ scenario: 'firehose', servers: ['ws'], clients: ['undici'], preset: 'ci' });
  assert.equal(result.cells.length, 1);
  assertWireMatchesServer(result.cells[0]!);
});

test('a bad fragment size exits 2 with one line', async () => {
  const outcome = await runCli(['run', 'firehose', '--fragment-size', '8q']);
  assert.equal(outcome.code, 2);
  assert.equal(outcome.stderr, 'wsbench: --fragment-size: "8q" is not a size in bytes such as 32, 4kb, 64KiB\n');
});
