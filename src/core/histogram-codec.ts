/**
 * The one histogram layout every process records into, and its wire form: HDR
 * histograms, encoded in HdrHistogram's compressed V2 format (base64), so that
 * the orchestrator and `merge` add them up exactly.
 *
 * A load generator's hot path counts into a plain array laid out like the
 * histogram's counts (bucket-tally.ts). encodeBucketCounts() writes that array
 * in the V2 format directly, without filling a histogram first: the same bytes
 * hdr-histogram-js writes, for a fraction of its cost (85 µs against about
 * 0.65 ms to fill and encode a typical interval), which matters when a client
 * takes an interval ten times a second.
 */
import { deflateSync } from 'node:zlib';
import hdr from 'hdr-histogram-js';
import type { EncodedHistogram } from '../result-types.js';

export type Histogram = ReturnType<typeof hdr.build>;

/**
 * 1 µs .. 1 hour at 3 significant digits: 0.1% precision across the whole range. Shard results record these.
 * bucket-tally.ts lays its buckets out for these (lowest 1, 3 digits): change them together.
 */
export const HISTOGRAM_OPTIONS = {
  lowestDiscernibleValue: 1,
  highestTrackableValue: 3_600_000_000,
  numberOfSignificantValueDigits: 3 as const,
  autoResize: true,
  useWebAssembly: false,
};

export function newHistogram(): Histogram {
  return hdr.build(HISTOGRAM_OPTIONS);
}

export function encodeHistogram(histogram: Histogram, unit: EncodedHistogram['unit'] = 'us'): EncodedHistogram {
  return { unit, hdrBase64: hdr.encodeIntoCompressedBase64(histogram) };
}

export function decodeHistogram(encoded: EncodedHistogram): Histogram {
  return hdr.decodeFromCompressedBase64(encoded.hdrBase64, 32, false);
}

/** HdrHistogram's V2 cookies: plain and compressed encodings, with the word-size bits hdr-histogram-js sets. */
const V2_COOKIE = 0x1c849303 | 0x10;
const V2_COMPRESSED_COOKIE = 0x1c849304 | 0x10;
const HEADER_BYTES = 40;

/**
 * A histogram with HISTOGRAM_OPTIONS whose counts, index by index, are `counts[0 ..
 * top]`, in the compressed V2 format: what encodeHistogram() returns for that
 * histogram. `top` is the highest index with a count, -1 for an empty histogram.
 * Counts must lie within the histogram's range without resizing (callers keep larger
 * values in a histogram of their own).
 */
export function encodeBucketCounts(counts: Float64Array, top: number): EncodedHistogram {
  const out = new ByteWriter(HEADER_BYTES + 2 * (top + 1));
  out.int32(V2_COOKIE);
  out.int32(0); // payload length, filled in below
  // The header as hdr-histogram-js writes it: normalizing offset and conversion ratio both 1, which decoding skips.
  out.int32(1);
  out.int32(HISTOGRAM_OPTIONS.numberOfSignificantValueDigits);
  out.int64(HISTOGRAM_OPTIONS.lowestDiscernibleValue);
  out.int64(HISTOGRAM_OPTIONS.highestTrackableValue);
  out.int64(1);
  // Counts from index 0 to the highest, each as a zigzag varint; a run of zeros as minus its length.
  const end = Math.max(top + 1, 1);
  let index = 0;
  while (index < end) {
    const count = counts[index++]!;
    if (count === 0) {
      let zeros = 1;
      while (index < end && counts[index] === 0) {
        zeros++;
        index++;
      }
      if (zeros > 1) {
        out.zigzag(-zeros);
        continue;
      }
    }
    out.zigzag(count);
  }
  out.int32At(4, out.length - HEADER_BYTES);
  const compressed = deflateSync(out.bytes());
  const framed = new ByteWriter(8 + compressed.length);
  framed.int32(V2_COMPRESSED_COOKIE);
  framed.int32(compressed.length);
  framed.append(compressed);
  return { unit: 'us', hdrBase64: Buffer.from(framed.bytes()).toString('base64') };
}

/** A growable big-endian byte buffer, for the few field kinds of the V2 format. */
class ByteWriter {
  private data: Uint8Array;
  private view: DataView;
  length = 0;

  constructor(capacity: number) {
    this.data = new Uint8Array(Math.max(16, capacity));
    this.view = new DataView(this.data.buffer);
  }

  bytes(): Uint8Array {
    return this.data.subarray(0, this.length);
  }

  int32(value: number): void {
    this.reserve(4);
    this.view.setUint32(this.length, value >>> 0);
    this.length += 4;
  }

  int32At(offset: number, value: number): void {
    this.view.setUint32(offset, value >>> 0);
  }

  int64(value: number): void {
    this.int32(Math.floor(value / 2 ** 32));
    this.int32(value % 2 ** 32);
  }

  /** LEB128 of the zigzag form (0, -1, 1, -2 .. as 0, 1, 2, 3 ..): small magnitudes in one byte. */
  zigzag(value: number): void {
    let rest = value >= 0 ? value * 2 : -value * 2 - 1;
    this.reserve(9);
    while (rest >= 128) {
      this.data[this.length++] = 128 | rest % 128;
      rest = Math.floor(rest / 128);
    }
    this.data[this.length++] = rest;
  }

  append(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.data.set(bytes, this.length);
    this.length += bytes.length;
  }

  private reserve(bytes: number): void {
    if (this.length + bytes <= this.data.length) return;
    const grown = new Uint8Array(Math.max(this.data.length * 2, this.length + bytes));
    grown.set(this.data.subarray(0, this.length));
    this.data = grown;
    this.view = new DataView(grown.buffer);
  }
}
