/**
 * A synthetic order-book feed shaped like seed 003's (Kraken `book` channel,
 * v2 JSON): one snapshot per instrument (depth 1000, up to ~80 KB), then a
 * stream of incremental updates averaging ~220 bytes (the seed: ~208), of which 0.41% are
 * batched updates of 8-14 KB (the seed's 0.41% "messages requiring assembly"
 * with an 8 KB receive buffer, at ~2 fragments each).
 *
 * Built from a seeded PRNG, so every server x client pair gets the same bytes,
 * and built once, before sending starts, so the server spends its CPU sending.
 */
import { seededRandom } from 'wsbench/scenario';

/** The seed's 13 instruments and a plausible mid price for each. */
export const INSTRUMENTS: ReadonlyArray<readonly [symbol: string, midPrice: number]> = [
  ['BTC/USD', 43127.5],
  ['BTC/EUR', 39511.2],
  ['ETH/USD', 2301.55],
  ['ETH/EUR', 2108.4],
  ['SOL/USD', 98.231],
  ['XRP/USD', 0.61234],
  ['ADA/USD', 0.52311],
  ['DOGE/USD', 0.083412],
  ['AVAX/USD', 35.412],
  ['LINK/USD', 14.8821],
  ['DOT/USD', 7.2134],
  ['MATIC/USD', 0.8123],
  ['LTC/USD', 71.23],
];

export interface FeedMessage {
  text: string;
  /** UTF-8 length; the feed is ASCII, so equal to text.length. */
  bytes: number;
}

export interface OrderBookFeed {
  /** One per instrument, sent first. */
  snapshots: FeedMessage[];
  /** Replayed in a loop after the snapshots. */
  updates: FeedMessage[];
}

const SNAPSHOT_DEPTH = 1000;
/** Long enough that the 0.4% batched share holds over the loop (~67 batches). */
const UPDATE_POOL = 16_384;
/** Every 244th update is a batch: 0.41%, the seed's share of assembled messages. */
const BATCH_EVERY = 244;
const BATCH_MIN_BYTES = 8_300;
const BATCH_MAX_BYTES = 10_000;
const BASE_TIME_MS = Date.UTC(2024, 0, 15, 12, 0, 0);

export function buildOrderBookFeed(seed = 0x0b00c): OrderBookFeed {
  const random = seededRandom(seed);
  const snapshots = INSTRUMENTS.map(([symbol, mid]) => message(snapshotText(random, symbol, mid)));
  const updates: FeedMessage[] = [];
  let clockMs = BASE_TIME_MS;
  for (let i = 0; i < UPDATE_POOL; i++) {
    const [symbol, mid] = INSTRUMENTS[Math.floor(random() * INSTRUMENTS.length)]!;
    clockMs += random() * 4;
    const batched = i % BATCH_EVERY === BATCH_EVERY - 1;
    updates.push(message(batched ? batchText(random, symbol, mid, clockMs) : updateText(random, symbol, mid, clockMs)));
  }
  return { snapshots, updates };
}

function message(text: string): FeedMessage {
  return { text, bytes: Buffer.byteLength(text) };
}

/** Prices keep the instrument's significant digits, quantities 8 decimals, as Kraken sends them. */
function decimalsOf(mid: number): number {
  return Math.max(1, 5 - Math.floor(Math.log10(mid)));
}

function level(random: () => number, mid: number, side: 1 | -1, rank: number): string {
  const price = mid * (1 + side * (rank + random()) * 0.00005);
  const qty = random() < 0.1 ? 0 : random() * 10 ** (1 + Math.floor(random() * 3));
  // Numbers as JSON numbers: no trailing zeros, a removed level is "qty":0.
  return `{"price":${Number(price.toFixed(decimalsOf(mid)))},"qty":${Number(qty.toFixed(8))}}`;
}

function levels(random: () => number, mid: number, side: 1 | -1, count: number): string {
  return Array.from({ length: count }, (_, rank) => level(random, mid, side, rank)).join(',');
}

function checksum(random: () => number): number {
  return Math.floor(random() * 4_294_967_296);
}

function snapshotText(random: () => number, symbol: string, mid: number): string {
  const bids = levels(random, mid, -1, SNAPSHOT_DEPTH);
  const asks = levels(random, mid, 1, SNAPSHOT_DEPTH);
  return `{"channel":"book","type":"snapshot","data":[{"symbol":"${symbol}","bids":[${bids}],"asks":[${asks}],"checksum":${checksum(random)}}]}`;
}

function updateText(random: () => number, symbol: string, mid: number, clockMs: number): string {
  // Mostly one changed level on one side; sometimes one on each side.
  const both = random() < 0.05;
  const bidSide = random() < 0.5;
  const bids = both || bidSide ? levels(random, mid, -1, 1) : '';
  const asks = both || !bidSide ? levels(random, mid, 1, 1) : '';
  return `{"channel":"book","type":"update","data":[{"symbol":"${symbol}","bids":[${bids}],"asks":[${asks}],"checksum":${checksum(random)},"timestamp":"${isoMicros(clockMs)}"}]}`;
}

/** Many levels changed at once: the large updates that need assembly. */
function batchText(random: () => number, symbol: string, mid: number, clockMs: number): string {
  const targetBytes = BATCH_MIN_BYTES + random() * (BATCH_MAX_BYTES - BATCH_MIN_BYTES);
  const perSide = Math.ceil(targetBytes / 2 / level(random, mid, 1, 0).length);
  return `{"channel":"book","type":"update","data":[{"symbol":"${symbol}","bids":[${levels(random, mid, -1, perSide)}],"asks":[${levels(random, mid, 1, perSide)}],"checksum":${checksum(random)},"timestamp":"${isoMicros(clockMs)}"}]}`;
}

function isoMicros(clockMs: number): string {
  const whole = Math.floor(clockMs);
  const micros = Math.floor((clockMs - whole) * 1000);
  return new Date(whole).toISOString().replace('Z', `${String(micros).padStart(3, '0')}Z`);
}
