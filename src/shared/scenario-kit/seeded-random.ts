/**
 * A tiny seeded generator (mulberry32), so generated workloads are the same
 * bytes on every run and every stack. Not for anything but test data.
 * examples/python/wsbench_protocol.py has the same generator, bit for bit.
 */

/** Numbers in [0, 1), the same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
