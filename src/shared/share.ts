/**
 * How work is spread over client processes, and over the pages of a browser client
 * (which run in no Node process: this file imports nothing).
 */

/** Spreads `total` over `count` processes: the first `total % count` take one more. */
export function shareOf(total: number, index: number, count: number): number {
  return Math.floor(total / count) + (index < total % count ? 1 : 0);
}

/** Index of process `index`'s first item when `total` is spread as shareOf() spreads it. */
export function firstOfShare(total: number, index: number, count: number): number {
  return Math.floor(total / count) * index + Math.min(index, total % count);
}
