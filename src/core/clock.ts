/**
 * CLOCK_MONOTONIC in microseconds. process.hrtime reads the same clock in every
 * process of one Linux host, so a timestamp taken in the server process can be
 * subtracted from one taken in a client process (one-way delay, one host only).
 */
export function monotonicUs(): number {
  return Number(process.hrtime.bigint()) / 1000;
}

export const CLOCK_NOTE =
  'One host, one clock: one-way delays subtract CLOCK_MONOTONIC readings (process.hrtime) taken in different processes of this machine; across hosts only round trips would be valid.';
