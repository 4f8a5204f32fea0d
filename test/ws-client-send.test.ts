/**
 * The ws client hands ws text as bytes (one write per frame, a repeated string
 * encoded once): what arrives must still be text frames with the same contents,
 * binary messages must stay binary, and compression must not change either.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { wsClient } from '../src/child/clients/ws.js';

interface Frame {
  text: string;
  binary: boolean;
}

/** Sends `messages` through the adapter to a real ws server and returns the frames it got. */
async function sendAll(
  messages: Array<string | Uint8Array>,
  deflate: boolean,
): Promise<{ frames: Frame[]; compressed: boolean }> {
  const server = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    perMessageDeflate: deflate ? { threshold: 0 } : false,
  });
  await new Promise((listening) => server.once('listening', listening));
  const frames: Frame[] = [];
  let compressed = false;
  const received = new Promise<void>((done) => {
    server.on('connection', (socket, request) => {
      compressed = (request.headers['sec-websocket-extensions'] ?? '').includes('permessage-deflate');
      socket.on('message', (data: Buffer, isBinary: boolean) => {
        frames.push({ text: data.toString(), binary: isBinary });
        if (frames.length === messages.length) done();
      });
    });
  });
  const { port } = server.address() as AddressInfo;
  const connection = await wsClient.connect(`ws://127.0.0.1:${port}`, {
    deflate,
    onMessage: () => undefined,
    onUnexpectedClose: () => undefined,
  });
  for (const message of messages) connection.send(message);
  await received;
  await connection.close();
  await new Promise((closed) => server.close(() => closed(undefined)));
  return { frames, compressed };
}

for (const deflate of [false, true]) {
  test(`text sent twice, other text and bytes arrive as they were sent (deflate ${deflate ? 'on' : 'off'})`, async () => {
    const payload = 'x'.repeat(32);
    const { frames, compressed } = await sendAll(
      [payload, payload, 'héllo ✓', new TextEncoder().encode('raw'), payload],
      deflate,
    );
    assert.equal(compressed, deflate);
    assert.deepEqual(frames, [
      { text: payload, binary: false },
      { text: payload, binary: false },
      { text: 'héllo ✓', binary: false },
      { text: 'raw', binary: true },
      { text: payload, binary: false },
    ]);
  });
}
