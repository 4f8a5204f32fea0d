/**
 * The fanout message: a JSON price tick shaped like seed 002's (`price`,
 * `timestamp`), padded with JSON whitespace to the seed's 97 bytes so every
 * stack carries the same load.
 */
import { seededRandom } from 'wsbench/scenario';

/** Size of the seed's streamed JSON object, in bytes. */
export const SEED_MESSAGE_BYTES = 97;

export interface PriceTick {
  /** Tick number from 0; one per interval, the same for every client. */
  seq: number;
  price: number;
  /** CLOCK_MONOTONIC µs of the tick's intended send time (see fanout.ts). */
  timestamp: number;
}

/** A random walk of prices, the same sequence on every run. */
export function priceWalk(seed = 0x5eed): () => number {
  const random = seededRandom(seed);
  let cents = 4_312_753;
  return () => {
    cents = Math.max(100, cents + Math.round((random() - 0.5) * 200));
    return cents / 100;
  };
}

/** Python's json.dumps spacing, as the seed's client read it; ASCII only, so length = bytes. */
export function encodePriceTick(tick: PriceTick): string {
  const body = `{"symbol": "BTC/USDT", "seq": ${tick.seq}, "price": ${tick.price.toFixed(2)}, "timestamp": ${tick.timestamp.toFixed(1)}`;
  return `${body.padEnd(SEED_MESSAGE_BYTES - 1, ' ')}}`;
}

/** Reads a tick back; null when the text is not one. */
export function decodePriceTick(text: string): PriceTick | null {
  try {
    const value = JSON.parse(text) as Partial<PriceTick>;
    if (typeof value.seq !== 'number' || typeof value.price !== 'number' || typeof value.timestamp !== 'number')
      return null;
    return value as PriceTick;
  } catch {
    return null;
  }
}
