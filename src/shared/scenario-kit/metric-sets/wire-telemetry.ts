/**
 * Receive-path telemetry read off the wire: frames per message, single-frame
 * (fast path) versus assembled messages, and the time from the chunk carrying
 * an assembled message's first frame header to the chunk that completes it.
 * Plain numbers while running; flushed into counters once at the end, and
 * read back as metrics by WIRE_METRICS.
 */
import type { MetricRole, MetricUnit } from '../../types/declaration-types.js';
import { FrameParser } from '../../parsing/frame-parser.js';
import type { CellMeasurements } from '../../types/result-types.js';
import type { Clock, MetricDefinition, MetricsApi, Recorder } from '../../types/scenario-types.js';

/**
 * Reads frame headers off a connection's raw bytes (`onWireData`) and flushes what it saw into the counters
 * WIRE_METRICS reads.
 */
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

  constructor(
    private readonly clock: Clock,
    metrics: MetricsApi,
  ) {
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

  /** Writes the totals as counters of this process (call once, only when the wire was tapped). */
  flush(metrics: MetricsApi): void {
    const put = (name: string, value: number): void => metrics.counter(name).add(value);
    put('wireTapped', 1);
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

type Counters = Readonly<Record<string, number>>;
type Better = MetricDefinition['better'];

/** A metric of the flushed counters; null where the client stack hands over no raw bytes (nothing was read). */
function wire(
  header: string,
  unit: MetricUnit,
  how: string,
  value: (c: Counters, m: CellMeasurements) => number | null,
  better: Better = 'none',
  role: MetricRole = 'detail',
): MetricDefinition {
  const compute = ({ measurements: m }: { measurements: CellMeasurements }): number | null =>
    (m.counters.wireTapped ?? 0) > 0 ? value(m.counters, m) : null;
  return { header, unit, better, role, source: { custom: `${how}, read off the wire`, compute } };
}
const count =
  (name: string) =>
  (c: Counters): number =>
    c[name] ?? 0;
const ratio = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);
const assemblyUs =
  (stat: 'p99Ms' | 'maxMs') =>
  (_c: Counters, m: CellMeasurements): number | null => {
    const assembly = m.latency.assembly;
    return assembly ? assembly[stat] * 1000 : null;
  };

/** The receive path as metrics, from the counters flush() wrote. */
export const WIRE_METRICS = {
  receiveErrors: wire(
    'rx err',
    'count',
    'WebSocket framing violations',
    count('wireProtocolErrors'),
    'lower',
    'errors',
  ),
  framesPerMessageAvg: wire('frm/msg', 'ratio', 'data frames / messages', (c) =>
    ratio(c.wireDataFrames ?? 0, c.wireMessages ?? 0),
  ),
  // Each round's own largest: maxima of several rounds cannot add up.
  framesPerMessageMax: {
    ...wire('max frm', 'count', 'most data frames one message took', count('wireMaxFramesPerMessage')),
    acrossRounds: 'max',
  },
  fastPathMessages: wire('fast path', 'count', 'messages that came in one frame', count('fastPathMessages')),
  assembledMessages: wire('assembled', 'count', 'messages assembled from several frames', count('assembledMessages')),
  fastPathPercent: wire('fast %', '%', 'share of messages that came in one frame', (c) => {
    const share = ratio(c.fastPathMessages ?? 0, c.wireMessages ?? 0);
    return share === null ? null : 100 * share;
  }),
  assemblyAvgUs: wire(
    'asm µs',
    'us',
    'exact sum of assembly times / assembled messages',
    (c) => ratio(c.assemblyTotalUs ?? 0, c.assembledMessages ?? 0),
    'lower',
  ),
  assemblyP99Us: wire('asm p99 µs', 'us', 'p99 of the assembly histogram', assemblyUs('p99Ms'), 'lower'),
  assemblyMaxUs: wire('asm max µs', 'us', 'longest assembly', assemblyUs('maxMs'), 'lower'),
  assemblyTotalMs: wire(
    'asm total ms',
    'ms',
    'exact sum of assembly times',
    (c) => (c.assemblyTotalUs ?? 0) / 1000,
    'lower',
  ),
  wireMessages: wire('wire msgs', 'count', 'complete data messages', count('wireMessages')),
  wirePayloadBytes: wire('wire payload', 'bytes', 'payload bytes of data frames', count('wirePayloadBytes')),
  wireDataFrames: wire('data frames', 'count', 'data frames', count('wireDataFrames')),
  wireControlFrames: wire('control frames', 'count', 'control frames (ping, pong, close)', count('wireControlFrames')),
  wireBytes: wire('wire bytes', 'bytes', 'bytes received, frame headers included', count('wireBytes')),
} satisfies Record<string, MetricDefinition>;
