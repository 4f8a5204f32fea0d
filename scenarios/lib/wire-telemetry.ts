/**
 * Receive-path telemetry read off the wire: frames per message, single-frame
 * (fast path) versus assembled messages, and the time from the chunk carrying
 * an assembled message's first frame header to the chunk that completes it.
 * Plain numbers while running; flushed into counters once at the end.
 */
import type { Clock, MetricsApi, Recorder } from '../../src/index.js';
import { FrameParser } from '../../src/scenario-kit/frame-parser.js';

export class WireTelemetry {
  readonly parser: FrameParser;
  messages = 0;
  payloadBytes = 0;
  dataFrames = 0;
  controlFrames = 0;
  maxFramesPerMessage = 0;
  fastPath = 0;
  assembled = 0;
  protocolErrors = 0;
  /** Exact sum of assembly times (the histogram rounds a same-chunk 0 up to 1 µs). */
  assemblyTotalUs = 0;
  firstError: string | null = null;
  private readonly assembly: Recorder;
  /** Time of the chunk being parsed, read at most once per chunk. */
  private chunkUs = -1;
  private assemblyStartUs = -1;

  constructor(private readonly clock: Clock, metrics: MetricsApi) {
    this.assembly = metrics.histogram('assembly');
    this.parser = new FrameParser({
      onMessageStart: (final) => {
        if (!final) this.assemblyStartUs = this.now();
      },
      onMessageEnd: (frames, bytes) => this.messageEnded(frames, bytes),
      onControlFrame: () => void (this.controlFrames += 1),
      onProtocolError: (reason) => {
        this.protocolErrors += 1;
        this.firstError ??= reason;
      },
    });
  }

  /** The adapter's onWireData. */
  readonly push = (chunk: Uint8Array): void => {
    this.chunkUs = -1;
    this.parser.push(chunk);
  };

  private now(): number {
    if (this.chunkUs < 0) this.chunkUs = this.clock.nowUs();
    return this.chunkUs;
  }

  private messageEnded(frames: number, bytes: number): void {
    this.messages += 1;
    this.payloadBytes += bytes;
    this.dataFrames += frames;
    if (frames > this.maxFramesPerMessage) this.maxFramesPerMessage = frames;
    if (frames === 1) {
      this.fastPath += 1;
      return;
    }
    this.assembled += 1;
    const tookUs = this.now() - this.assemblyStartUs;
    this.assemblyTotalUs += tookUs;
    this.assembly.recordUs(tookUs);
  }

  /** Writes the totals as counters of this process (call once). */
  flush(metrics: MetricsApi): void {
    const put = (name: string, value: number): void => metrics.counter(name).add(value);
    put('wireMessages', this.messages);
    put('wirePayloadBytes', this.payloadBytes);
    put('wireDataFrames', this.dataFrames);
    put('wireControlFrames', this.controlFrames);
    put('wireFrames', this.parser.frames);
    put('wireBytes', this.parser.bytes);
    put('wireMaxFramesPerMessage', this.maxFramesPerMessage);
    put('fastPathMessages', this.fastPath);
    put('assembledMessages', this.assembled);
    put('wireProtocolErrors', this.protocolErrors);
    put('assemblyTotalUs', Math.round(this.assemblyTotalUs));
  }
}
