/**
 * The live state in Prometheus' protobuf exposition format: a stream of
 * io.prometheus.client.MetricFamily messages (client_model's metrics.proto),
 * each prefixed by its length as a varint ("encoding=delimited"). It is the one
 * format Prometheus scrapes native histograms in (2.40+, with
 * --enable-feature=native-histograms), so wsbench_latency_seconds carries both
 * its classic buckets and its native ones here.
 *
 * Written by hand: the few messages used are small, and a protobuf runtime
 * would be a dependency for some fifty lines of wire format. Field numbers are
 * metrics.proto's.
 */
import {
  LATENCY_BUCKET_BOUNDS_SECONDS,
  NATIVE_SCHEMA,
  NATIVE_ZERO_THRESHOLD_SECONDS,
  type LatencyBuckets,
} from './latency-buckets.js';
import { metricFamilies, type Labels, type MetricFamily } from './metric-families.js';
import type { LiveState } from './state.js';

export const PROTOBUF_CONTENT_TYPE =
  'application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited';

/** MetricType of metrics.proto. */
const METRIC_TYPE = { counter: 0, gauge: 1, histogram: 4 } as const;

/** The state as length-delimited MetricFamily messages. */
export function renderProtobuf(state: LiveState): Buffer {
  return Buffer.concat(metricFamilies(state).map((family) => delimited(metricFamily(family))));
}

function metricFamily(family: MetricFamily): Buffer {
  const w = new Writer();
  w.string(1, family.name);
  w.string(2, family.help);
  w.varintField(3, METRIC_TYPE[family.type]);
  if (family.type === 'histogram')
    for (const s of family.samples) w.message(4, metric(s.labels, 7, histogram(s.histogram)));
  else
    for (const s of family.samples)
      w.message(4, metric(s.labels, family.type === 'counter' ? 3 : 2, doubleValue(s.value)));
  return w.finish();
}

/** Metric: its labels (field 1) and its value message (gauge 2, counter 3, histogram 7). */
function metric(labels: Labels, field: number, value: Buffer): Buffer {
  const w = new Writer();
  for (const [name, text] of labels) {
    const pair = new Writer();
    pair.string(1, name);
    pair.string(2, text);
    w.message(1, pair.finish());
  }
  w.message(field, value);
  return w.finish();
}

/** Gauge and Counter: `double value = 1`. */
function doubleValue(value: number): Buffer {
  const w = new Writer();
  w.double(1, value);
  return w.finish();
}

function histogram(h: LatencyBuckets): Buffer {
  const w = new Writer();
  w.varintField(1, h.count);
  w.double(2, h.sumSeconds);
  LATENCY_BUCKET_BOUNDS_SECONDS.forEach((bound, i) => {
    const bucket = new Writer();
    bucket.varintField(1, h.cumulativeCounts[i]!);
    bucket.double(2, bound);
    w.message(3, bucket.finish());
  });
  // Native: a zero threshold above 0 is what marks a histogram as native even while it has no sample.
  w.varintField(5, zigzag(NATIVE_SCHEMA));
  w.double(6, NATIVE_ZERO_THRESHOLD_SECONDS);
  w.varintField(7, h.zeroCount);
  const spans: Array<{ offset: number; length: number }> = [];
  const deltas: number[] = [];
  let previousIndex: number | null = null;
  let previousCount = 0;
  for (const [index, count] of h.native) {
    if (previousIndex !== null && index === previousIndex + 1) spans.at(-1)!.length += 1;
    else spans.push({ offset: previousIndex === null ? index : index - previousIndex - 1, length: 1 });
    deltas.push(count - previousCount);
    previousIndex = index;
    previousCount = count;
  }
  for (const span of spans) {
    const s = new Writer();
    s.varintField(1, zigzag(span.offset));
    s.varintField(2, span.length);
    w.message(12, s.finish());
  }
  if (deltas.length > 0) w.packedVarints(13, deltas.map(zigzag));
  return w.finish();
}

function delimited(message: Buffer): Buffer {
  const prefix: number[] = [];
  pushVarint(prefix, message.length);
  return Buffer.concat([Buffer.from(prefix), message]);
}

/** sint32/sint64's ZigZag encoding, for integers JavaScript holds exactly. */
function zigzag(value: number): number {
  return value >= 0 ? value * 2 : -value * 2 - 1;
}

/** Base-128 varint of a non-negative integer up to 2^53 (division, not bit operators, which stop at 32 bits). */
function pushVarint(bytes: number[], value: number): void {
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
}

/** Fields of one message, in order. */
class Writer {
  private readonly parts: Buffer[] = [];

  private tag(field: number, wireType: number): void {
    const bytes: number[] = [];
    pushVarint(bytes, field * 8 + wireType);
    this.parts.push(Buffer.from(bytes));
  }

  varintField(field: number, value: number): void {
    this.tag(field, 0);
    const bytes: number[] = [];
    pushVarint(bytes, value);
    this.parts.push(Buffer.from(bytes));
  }

  double(field: number, value: number): void {
    this.tag(field, 1);
    const bytes = Buffer.alloc(8);
    bytes.writeDoubleLE(value);
    this.parts.push(bytes);
  }

  string(field: number, value: string): void {
    this.message(field, Buffer.from(value, 'utf8'));
  }

  message(field: number, value: Buffer): void {
    this.tag(field, 2);
    const bytes: number[] = [];
    pushVarint(bytes, value.length);
    this.parts.push(Buffer.from(bytes), value);
  }

  packedVarints(field: number, values: number[]): void {
    const bytes: number[] = [];
    for (const value of values) pushVarint(bytes, value);
    this.message(field, Buffer.from(bytes));
  }

  finish(): Buffer {
    return Buffer.concat(this.parts);
  }
}
