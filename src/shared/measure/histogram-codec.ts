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
import { deflateSync, inflateSync } from 'node:zlib';
import hdr from 'hdr-histogram-js';
import type { EncodedHistogram } from '../types/result-types.js';

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

/** An HDR histogram of the result JSON (`measurements.histograms`), decoded to read any percentile. */
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

/** Counts per index of a histogram with HISTOGRAM_OPTIONS (not resized): 23 buckets of 1024 sub-buckets. */
const COUNTS_LENGTH = 23 * 1024;
/** Reused by every merge: a decoded histogram would allocate its own 94 KB counts array. */
let scratchCounts: Float64Array | null = null;

/**
 * The exact merge of encoded histograms (bucket counts add), computed on the wire
 * form: each part's counts are added into one reused array and the sum encoded with
 * encodeBucketCounts(), the bytes encodeHistogram() writes for the merged histogram.
 * hdr-histogram-js would decode every part into a histogram of its own and fill a
 * third, three arrays of 94 KB per merge; the orchestrator merges every tick into its
 * time series, and hundreds at once when a series folds, and that churn of native
 * memory is what made its RSS climb over long runs. Returns null when a part is not
 * laid out as HISTOGRAM_OPTIONS (another layout, or resized past its range): the caller
 * merges those with hdr-histogram-js.
 */
export function mergeBucketCounts(parts: EncodedHistogram[]): EncodedHistogram | null {
  const counts = (scratchCounts ??= new Float64Array(COUNTS_LENGTH));
  let top = -1;
  for (const part of parts) {
    const partTop = addCountsOf(part.hdrBase64, counts);
    if (partTop === null) {
      counts.fill(0);
      return null;
    }
    top = Math.max(top, partTop);
  }
  const merged = encodeBucketCounts(counts, top);
  counts.fill(0, 0, top + 1);
  return { unit: parts[0]?.unit ?? 'us', hdrBase64: merged.hdrBase64 };
}

/**
 * Makes `histogram` (laid out as HISTOGRAM_OPTIONS) hold exactly the counts of `encoded`, in place: what
 * decodeHistogram() would return, without a new 94 KB counts array per call. False, and `histogram`
 * untouched, for another layout.
 */
export function fillFromEncoded(histogram: Histogram, encoded: EncodedHistogram): boolean {
  const counts = (scratchCounts ??= new Float64Array(COUNTS_LENGTH));
  const top = addCountsOf(encoded.hdrBase64, counts);
  if (top === null) {
    counts.fill(0);
    return false;
  }
  // The steps of hdr-histogram-js's own decoding: counts set index by index, then its totals, min and max from them.
  const decoding = histogram as Histogram & {
    setCountAtIndex(index: number, count: number): void;
    establishInternalTackingValues(length: number): void;
  };
  histogram.reset();
  for (let index = 0; index <= top; index++) if (counts[index]! > 0) decoding.setCountAtIndex(index, counts[index]!);
  decoding.establishInternalTackingValues(top + 1);
  counts.fill(0, 0, top + 1);
  return true;
}

/** Adds the counts of one compressed V2 histogram into `counts`; its highest index with a count (-1: none), or null for another layout. */
function addCountsOf(base64: string, counts: Float64Array): number | null {
  const framed = Buffer.from(base64, 'base64');
  if (framed.length < 8 || framed.readUInt32BE(0) !== V2_COMPRESSED_COOKIE >>> 0) return null;
  const data = inflateSync(framed.subarray(8, 8 + framed.readUInt32BE(4)));
  if (data.length < HEADER_BYTES || data.readUInt32BE(0) !== V2_COOKIE >>> 0) return null;
  const digits = data.readUInt32BE(12);
  const lowest = Number(data.readBigUInt64BE(16));
  const highest = Number(data.readBigUInt64BE(24));
  if (
    digits !== HISTOGRAM_OPTIONS.numberOfSignificantValueDigits ||
    lowest !== HISTOGRAM_OPTIONS.lowestDiscernibleValue ||
    highest !== HISTOGRAM_OPTIONS.highestTrackableValue
  )
    return null;
  const end = Math.min(data.length, HEADER_BYTES + data.readUInt32BE(4));
  let index = 0;
  let top = -1;
  let at = HEADER_BYTES;
  while (at < end) {
    // LEB128, then zigzag: a negative value is a run of that many zero counts.
    let raw = 0;
    let scale = 1;
    let byte: number;
    do {
      byte = data[at++]!;
      raw += (byte & 127) * scale;
      scale *= 128;
    } while (byte & 128 && at < end);
    const value = raw % 2 === 0 ? raw / 2 : -(raw + 1) / 2;
    if (value < 0) {
      index -= value;
      continue;
    }
    if (value > 0) {
      if (index >= counts.length) return null;
      counts[index] = counts[index]! + value;
      top = index;
    }
    index++;
  }
  return top;
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
      this.data[this.length++] = 128 | (rest % 128);
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
