/** Spreads `total` over `count` processes: the first `total % count` take one more. */
export function shareOf(total: number, index: number, count: number): number {
  return Math.floor(total / count) + (index < total % count ? 1 : 0);
}
