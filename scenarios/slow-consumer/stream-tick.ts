/**
 * slow-consumer's stream message: a small JSON header, then spaces up to the
 * message's size, so a reader parses the header alone however large the
 * message is. `seq` counts from 0, `t` is when the server meant to send it
 * (CLOCK_MONOTONIC, µs), `q` the bytes the server had queued for its slow
 * connections at that moment. docs/protocols/slow-consumer.md has it byte for byte.
 */

export interface StreamTick {
  seq: number;
  /** Intended send time, µs on the host's monotonic clock. */
  t: number;
  /** Bytes queued by the server for its slow connections when it sent this one. */
  q: number;
}

/** The header, then spaces until the message is `sizeBytes` long (never shorter than the header). */
export function encodeStreamTick(tick: StreamTick, sizeBytes: number): string {
  const header = JSON.stringify({ seq: tick.seq, t: Math.round(tick.t * 10) / 10, q: tick.q });
  return header.length >= sizeBytes ? header : header + ' '.repeat(sizeBytes - header.length);
}

const CLOSING_BRACE = 0x7d;
const decoder = new TextDecoder();

/** The header of a message (text or its UTF-8 bytes); null when it is not one. */
export function decodeStreamTick(data: string | Uint8Array): StreamTick | null {
  const end = typeof data === 'string' ? data.indexOf('}') : data.indexOf(CLOSING_BRACE);
  if (end < 0) return null;
  const header = typeof data === 'string' ? data.slice(0, end + 1) : decoder.decode(data.subarray(0, end + 1));
  try {
    const value = JSON.parse(header) as Partial<StreamTick>;
    return typeof value.seq === 'number' && typeof value.t === 'number' && typeof value.q === 'number'
      ? { seq: value.seq, t: value.t, q: value.q }
      : null;
  } catch {
    return null;
  }
}

/** Byte length of a message as received (text counted as UTF-8; the stream is ASCII). */
export function messageBytes(data: string | Uint8Array): number {
  return typeof data === 'string' ? data.length : data.byteLength;
}
