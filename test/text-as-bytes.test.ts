/**
 * textAsBytes: a scenario that checks only sizes may take text messages as their
 * bytes. The ws client then skips decoding but still validates the UTF-8; a client
 * whose runtime decodes text itself keeps handing over strings.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { ClientAdapter, MessageData } from '../src/shared/types/adapter-types.js';
import { wsClient } from '../src/child/clients/ws.js';
import { undiciClient } from '../src/child/clients/undici.js';

/** A server that greets each connection with `frames` (text unless a Buffer marked binary). */
async function greeter(
  frames: Array<{ data: string | Buffer; binary: boolean }>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((listening) => server.once('listening', listening));
  server.on('connection', (socket) => {
    for (const frame of frames) socket.send(frame.data, { binary: frame.binary });
  });
  const { port } = server.address() as AddressInfo;
  return { url: `ws://127.0.0.1:${port}`, close: () => new Promise((closed) => server.close(() => closed(undefined))) };
}

async function receive(
  adapter: ClientAdapter,
  url: string,
  count: number,
  textAsBytes: boolean,
): Promise<MessageData[]> {
  const messages: MessageData[] = [];
  let connection: Awaited<ReturnType<ClientAdapter['connect']>> | undefined;
  await new Promise<void>((done, fail) => {
    adapter
      .connect(url, {
        textAsBytes,
        onMessage(data) {
          // A Buffer may be reused after the call: keep a copy.
          messages.push(typeof data === 'string' ? data : Uint8Array.from(data));
          if (messages.length === count) done();
        },
        onUnexpectedClose: (reason) => fail(new Error(reason)),
      })
      .then((opened) => (connection = opened), fail);
  });
  await connection?.close();
  return messages;
}

const frames = [
  { data: 'héllo', binary: false },
  { data: Buffer.from([1, 2, 3]), binary: true },
];

test('the ws client hands text over as its UTF-8 bytes when asked, and as a string otherwise', async () => {
  const server = await greeter(frames);
  try {
    const [text, binary] = await receive(wsClient, server.url, 2, true);
    assert.ok(text instanceof Uint8Array, 'text as bytes');
    assert.equal(new TextDecoder().decode(text), 'héllo');
    assert.equal(text.byteLength, 6);
    assert.deepEqual([...(binary as Uint8Array)], [1, 2, 3]);

    const [decoded] = await receive(wsClient, server.url, 2, false);
    assert.equal(decoded, 'héllo');
  } finally {
    await server.close();
  }
});

test('the ws client still refuses text that is not UTF-8 when it hands text over as bytes', async () => {
  // ws sends these bytes as a text frame without checking them.
  const server = await greeter([{ data: Buffer.from([0xff, 0xfe]), binary: false }]);
  try {
    // Were the bytes let through, receive() would resolve with them; ws fails the connection instead.
    await assert.rejects(receive(wsClient, server.url, 1, true), /connection closed by peer/);
  } finally {
    await server.close();
  }
});

test('a client whose runtime decodes text itself keeps handing over strings', async () => {
  const server = await greeter(frames);
  try {
    const [text] = await receive(undiciClient, server.url, 2, true);
    assert.equal(text, 'héllo');
  } finally {
    await server.close();
  }
});
