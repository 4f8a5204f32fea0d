/** The wire frame-header parser against hand-built frames, whole and split at every byte. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FrameParser } from '../src/shared/parsing/frame-parser.js';

interface Seen {
  starts: number;
  /** How many messages began with a frame that was not their last. */
  fragmentedStarts: number;
  messages: Array<[frames: number, payloadBytes: number]>;
  controls: Array<[opcode: number, payloadBytes: number]>;
  errors: string[];
}

function parse(chunks: Uint8Array[]): { seen: Seen; parser: FrameParser } {
  const seen: Seen = { starts: 0, fragmentedStarts: 0, messages: [], controls: [], errors: [] };
  const parser = new FrameParser({
    onMessageStart: (final) => {
      seen.starts += 1;
      if (!final) seen.fragmentedStarts += 1;
    },
    onMessageEnd: (frames, bytes) => void seen.messages.push([frames, bytes]),
    onControlFrame: (opcode, bytes) => void seen.controls.push([opcode, bytes]),
    onProtocolError: (reason) => void seen.errors.push(reason),
  });
  for (const chunk of chunks) parser.push(chunk);
  return { seen, parser };
}

const bytes = (...parts: Array<number[] | Uint8Array>): Uint8Array => Uint8Array.from(parts.flatMap((p) => [...p]));
const filler = (n: number): Uint8Array => new Uint8Array(n).fill(0x78);

// Text "hi", one frame: FIN|text, length 2.
const SMALL_TEXT = bytes([0x81, 0x02, 0x68, 0x69]);
// Binary, 16-bit length 256.
const MEDIUM_BINARY = bytes([0x82, 0x7e, 0x01, 0x00], filler(256));
// Binary, 64-bit length 65536 (0x00010000).
const LARGE_BINARY = bytes([0x82, 0x7f, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00], filler(65536));
// "abc" + ping + "de" + "f": a text message in three fragments with a ping between them.
const FRAGMENTED_WITH_PING = bytes(
  [0x01, 0x03, 0x61, 0x62, 0x63],
  [0x89, 0x00],
  [0x00, 0x02, 0x64, 0x65],
  [0x80, 0x01, 0x66],
);
// Fragmented binary whose 2nd fragment has a 16-bit length: 10 + 300 + 0 bytes.
const FRAGMENTED_LONG = bytes([0x02, 0x0a], filler(10), [0x00, 0x7e, 0x01, 0x2c], filler(300), [0x80, 0x00]);
// Empty text message, then a close frame with code 1000.
const EMPTY_THEN_CLOSE = bytes([0x81, 0x00], [0x88, 0x02, 0x03, 0xe8]);
// Masked text frame "ok" (client to server): mask bit and a 4-byte key before the payload.
const MASKED = bytes([0x81, 0x82, 0x11, 0x22, 0x33, 0x44, 0x7e, 0x49]);

const STREAM = bytes(
  SMALL_TEXT,
  MEDIUM_BINARY,
  FRAGMENTED_WITH_PING,
  LARGE_BINARY,
  FRAGMENTED_LONG,
  EMPTY_THEN_CLOSE,
  MASKED,
);
const EXPECTED: Seen = {
  starts: 7,
  fragmentedStarts: 2,
  messages: [
    [1, 2],
    [1, 256],
    [3, 6],
    [1, 65536],
    [3, 310],
    [1, 0],
    [1, 2],
  ],
  controls: [
    [9, 0],
    [8, 2],
  ],
  errors: [],
};

test('reads 7-bit, 16-bit and 64-bit lengths, fragments, interleaved control frames and masks', () => {
  const { seen, parser } = parse([STREAM]);
  assert.deepEqual(seen, EXPECTED);
  assert.equal(parser.frames, 13);
  assert.equal(parser.bytes, STREAM.byteLength);
});

test('gives the same answer wherever the stream is cut into two chunks', () => {
  // Every cut through the headers and a few through payloads.
  for (let cut = 0; cut <= STREAM.byteLength; cut += cut < 400 ? 1 : 997) {
    const { seen, parser } = parse([STREAM.subarray(0, cut), STREAM.subarray(cut)]);
    assert.deepEqual(seen, EXPECTED, `cut at ${cut}`);
    assert.equal(parser.frames, 13, `cut at ${cut}`);
  }
});

test('gives the same answer one byte at a time', () => {
  const chunks = Array.from({ length: STREAM.byteLength }, (_, i) => STREAM.subarray(i, i + 1));
  assert.deepEqual(parse(chunks).seen, EXPECTED);
});

test('reports a message only when its last payload byte arrives', () => {
  const ends: number[] = [];
  const parser = new FrameParser({ onMessageEnd: (_frames, payloadBytes) => void ends.push(payloadBytes) });
  parser.push(MEDIUM_BINARY.subarray(0, 100));
  assert.deepEqual(ends, []);
  parser.push(MEDIUM_BINARY.subarray(100));
  assert.deepEqual(ends, [256]);
});

test('names framing violations and stops reading', () => {
  const cases: Array<[Uint8Array, string]> = [
    [bytes([0x80, 0x01, 0x61]), 'continuation frame outside a message'],
    [bytes([0x01, 0x01, 0x61], [0x81, 0x00]), 'new data frame before the previous message ended'],
    [bytes([0x89, 0x7e, 0x00, 0x7e], filler(126)), 'control frame fragmented or longer than 125 bytes'],
    [bytes([0x09, 0x00]), 'control frame fragmented or longer than 125 bytes'],
    [bytes([0x83, 0x00]), 'reserved data opcode 3'],
    [bytes([0x8b, 0x00]), 'reserved control opcode 11'],
    [bytes([0x82, 0x7f, 0xff, 0, 0, 0, 0, 0, 0, 0]), '64-bit frame length above 2^53'],
  ];
  for (const [stream, reason] of cases) {
    const { seen, parser } = parse([stream, SMALL_TEXT]);
    assert.deepEqual(seen.errors, [reason]);
    assert.equal(parser.broken, true);
    assert.equal(seen.messages.length, 0, reason);
  }
});
