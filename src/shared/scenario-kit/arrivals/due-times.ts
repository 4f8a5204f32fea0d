/**
 * The due times of one connection's messages under the open model. The rate
 * curve is the whole cell's; N connections take its arrivals in turn (uniform:
 * connection i the arrivals i, i + N, i + 2N ...) or each runs a Poisson
 * process of 1/N of the rate (their sum is a Poisson process of the whole
 * rate). So the cell offers the curve's load whatever the number of client
 * processes, and no process has to hand work to another.
 */
import type { ArrivalProcess, OfferedRate } from '../../types/connection-types.js';
import { seededRandom } from '../seeded-random.js';

/** The next due time of a connection's messages, in µs from the window's opening; null once there are no more. */
export interface DueTimes {
  next(): number | null;
}

interface ConnectionArrivals {
  curve: OfferedRate;
  /** The connection's index over the whole cell, and the cell's connections. */
  index: number;
  count: number;
  process: ArrivalProcess;
  /** The Poisson gaps' seed: the same seed, the same gaps, on every run and stack. */
  seed: number;
}

export function connectionDueTimes(a: ConnectionArrivals): DueTimes {
  const usAt = (count: number): number | null => {
    const atS = a.curve.timeOf(count);
    return atS === null ? null : atS * 1e6;
  };
  if (a.process === 'uniform') {
    let k = 0;
    // One rate throughout: the closed form, with no search of the curve per message.
    const perSec = a.curve.constantRate();
    if (perSec !== null) {
      const intervalUs = 1e6 / perSec;
      return { next: () => (k++ * a.count + a.index) * intervalUs };
    }
    return { next: () => usAt(k++ * a.count + a.index) };
  }
  const random = seededRandom(mixSeed(a.seed, a.index));
  let count = 0;
  return {
    next: () => {
      // Exponential gaps of mean N in expected-count space: 1 - u is in (0, 1], so the log is finite.
      count += -Math.log(1 - random()) * a.count;
      return usAt(count);
    },
  };
}

/** One seed per connection, far apart for neighbouring seeds and indexes (a multiplicative hash). */
function mixSeed(seed: number, index: number): number {
  return (Math.imul(index + 1, 0x9e3779b1) ^ Math.imul(seed + 0x7f4a7c15, 0x85ebca6b)) >>> 0;
}
