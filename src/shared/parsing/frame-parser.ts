/**
 * Reads WebSocket frame headers (RFC 6455 section 5.2) off a raw byte stream,
 * so a scenario can count frames and fragments as they arrived on the wire,
 * whatever the client stack shows its user.
 *
 * Only headers are read: payload bytes are skipped by arithmetic, never copied,
 * so tapping a socket costs a few operations per frame. A header split across
 * TCP chunks is gathered in a 14-byte scratch buffer (the longest header).
 */

/** What the parser reports; every callback runs synchronously inside push(). */
export interface FrameParserEvents {
  /** A data frame (opcode 1 or 2) opened a new message; `final` when that frame is also its last. */
  onMessageStart?(final: boolean): void;
  /** The last byte of a message's final frame arrived. */
  onMessageEnd?(frames: number, payloadBytes: number): void;
  /** A control frame (close, ping, pong) was read completely. */
  onControlFrame?(opcode: number, payloadBytes: number): void;
  /** The stream broke the framing rules; the parser stops reading after this. */
  onProtocolError?(reason: string): void;
}

/** Opcodes of RFC 6455 section 5.2. */
export const OPCODE = { continuation: 0, text: 1, binary: 2, close: 8, ping: 9, pong: 10 } as const;

const MAX_HEADER_BYTES = 14;
/** 2^53: a 64-bit length beyond this cannot be a real frame and cannot be counted exactly. */
const MAX_SAFE_HIGH_WORD = 0x1fffff;

export class FrameParser {
  /** Frames whose header was read, data and control. */
  frames = 0;
  /** Every byte pushed, headers and payloads. */
  bytes = 0;
  /** True after a protocol error; later bytes are ignored. */
  broken = false;

  private readonly header = new Uint8Array(MAX_HEADER_BYTES);
  private headerFill = 0;
  /** Payload bytes of the current frame still to skip. */
  private payloadLeft = 0;
  private frameIsControl = false;
  private frameOpcode = 0;
  private frameFin = false;
  private frameBytes = 0;
  private inMessage = false;
  private messageFrames = 0;
  private messageBytes = 0;

  constructor(private readonly events: FrameParserEvents = {}) {}

  /** Feeds the next chunk of the stream, exactly as the socket delivered it. */
  push(chunk: Uint8Array): void {
    this.bytes += chunk.byteLength;
    let offset = 0;
    const end = chunk.byteLength;
    while (offset < end && !this.broken) {
      if (this.payloadLeft > 0) {
        const skip = Math.min(this.payloadLeft, end - offset);
        offset += skip;
        this.payloadLeft -= skip;
        if (this.payloadLeft === 0) this.endFrame();
        continue;
      }
      offset = this.readHeader(chunk, offset, end);
    }
  }

  /** Reads (part of) a header starting at `offset`; returns the offset after what it used. */
  private readHeader(chunk: Uint8Array, offset: number, end: number): number {
    // Fast path: the whole header sits in this chunk, read it in place.
    if (this.headerFill === 0 && end - offset >= 2) {
      const needed = headerLength(chunk[offset + 1]!);
      if (end - offset >= needed) {
        this.startFrame(chunk, offset);
        return offset + needed;
      }
    }
    // Slow path: gather the header across chunks.
    while (offset < end) {
      this.header[this.headerFill++] = chunk[offset++]!;
      if (this.headerFill >= 2 && this.headerFill === headerLength(this.header[1]!)) {
        this.headerFill = 0;
        this.startFrame(this.header, 0);
        break;
      }
    }
    return offset;
  }

  /** `bytes[at..]` holds one complete header. */
  private startFrame(bytes: Uint8Array, at: number): void {
    const first = bytes[at]!;
    const second = bytes[at + 1]!;
    const fin = (first & 0x80) !== 0;
    const opcode = first & 0x0f;
    let length = second & 0x7f;
    if (length === 126) length = (bytes[at + 2]! << 8) | bytes[at + 3]!;
    else if (length === 127) {
      const high = ((bytes[at + 2]! << 24) >>> 0) + (bytes[at + 3]! << 16) + (bytes[at + 4]! << 8) + bytes[at + 5]!;
      const low = ((bytes[at + 6]! << 24) >>> 0) + (bytes[at + 7]! << 16) + (bytes[at + 8]! << 8) + bytes[at + 9]!;
      if (high > MAX_SAFE_HIGH_WORD) return this.fail('64-bit frame length above 2^53');
      length = high * 2 ** 32 + low;
    }
    this.frames += 1;
    const control = opcode >= 8;
    if (control) {
      if (opcode > OPCODE.pong) return this.fail(`reserved control opcode ${opcode}`);
      if (!fin || length > 125) return this.fail('control frame fragmented or longer than 125 bytes');
    } else if (opcode === OPCODE.continuation) {
      if (!this.inMessage) return this.fail('continuation frame outside a message');
    } else if (opcode === OPCODE.text || opcode === OPCODE.binary) {
      if (this.inMessage) return this.fail('new data frame before the previous message ended');
      this.inMessage = true;
      this.messageFrames = 0;
      this.messageBytes = 0;
      this.events.onMessageStart?.(fin);
    } else {
      return this.fail(`reserved data opcode ${opcode}`);
    }
    this.frameIsControl = control;
    this.frameOpcode = opcode;
    this.frameFin = fin;
    this.frameBytes = length;
    if (!control) {
      this.messageFrames += 1;
      this.messageBytes += length;
    }
    this.payloadLeft = length;
    if (length === 0) this.endFrame();
  }

  private endFrame(): void {
    if (this.frameIsControl) {
      this.events.onControlFrame?.(this.frameOpcode, this.frameBytes);
    } else if (this.frameFin) {
      this.inMessage = false;
      this.events.onMessageEnd?.(this.messageFrames, this.messageBytes);
    }
  }

  private fail(reason: string): void {
    this.broken = true;
    this.events.onProtocolError?.(reason);
  }
}

/** Header length from the second header byte: 2, plus 2 or 8 for long lengths, plus 4 when masked. */
function headerLength(second: number): number {
  const code = second & 0x7f;
  return 2 + (code === 126 ? 2 : code === 127 ? 8 : 0) + ((second & 0x80) !== 0 ? 4 : 0);
}
