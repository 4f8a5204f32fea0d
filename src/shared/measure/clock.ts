/**
 * CLOCK_MONOTONIC in microseconds. Node's process.hrtime reads that clock
 * itself, the same in every process of one Linux host, so a timestamp taken in
 * the server process can be subtracted from one taken in a client process
 * (one-way delay, one host only).
 *
 * Bun and Deno count process.hrtime from their own start instead. Under them
 * the offset to CLOCK_MONOTONIC is measured once, at load, by reading the real
 * clock through the runtime's FFI (clock_gettime from libc), so that every
 * process, whatever its runtime, reports the same clock.
 */
import { bunApi, denoApi } from '../runtime-globals.js';

const CLOCK_MONOTONIC = 1;
/** Readings taken to find the offset; the one bracketed most tightly wins. */
const OFFSET_SAMPLES = 50;

type ReadClockNs = () => bigint;

/** CLOCK_MONOTONIC minus performance.now(), in µs: measured once, so a reading is one float add, no BigInt. */
const offsetUs = await offsetToMonotonicUs();

export function monotonicUs(): number {
  return performance.now() * 1000 + offsetUs;
}

export const CLOCK_NOTE =
  'One host, one clock: one-way delays subtract CLOCK_MONOTONIC readings (process.hrtime; under Bun and Deno offset to CLOCK_MONOTONIC once at start) taken in different processes of this machine; across hosts only round trips would be valid.';

/**
 * CLOCK_MONOTONIC (process.hrtime under Node; read through FFI under Bun or Deno)
 * minus performance.now(), both in µs. performance.now() runs on the same
 * monotonic clock, so the difference is constant: the tightest of a few
 * bracketed readings fixes it to well under a microsecond.
 */
async function offsetToMonotonicUs(): Promise<number> {
  const read = (await realMonotonicClock()) ?? (() => process.hrtime.bigint());
  let best = { spanUs: Number.POSITIVE_INFINITY, offsetUs: 0 };
  for (let i = 0; i < OFFSET_SAMPLES; i++) {
    const before = performance.now() * 1000;
    const real = Number(read()) / 1000;
    const after = performance.now() * 1000;
    if (after - before < best.spanUs) best = { spanUs: after - before, offsetUs: real - (before + after) / 2 };
  }
  return best.offsetUs;
}

/** A reader of CLOCK_MONOTONIC through FFI under Bun or Deno; null under Node (hrtime is that clock). */
async function realMonotonicClock(): Promise<ReadClockNs | null> {
  const timespec = new BigInt64Array(2);
  const toNs = (): bigint => timespec[0]! * 1_000_000_000n + timespec[1]!;
  if (bunApi()) {
    const ffi = (await import(/* Bun only */ 'bun:ffi' as string)) as {
      dlopen(
        path: string,
        symbols: Record<string, unknown>,
      ): { symbols: { clock_gettime(clock: number, out: BigInt64Array): number } };
      FFIType: { i32: unknown; ptr: unknown };
    };
    const libc = ffi.dlopen('libc.so.6', {
      clock_gettime: { args: [ffi.FFIType.i32, ffi.FFIType.ptr], returns: ffi.FFIType.i32 },
    });
    return () => {
      libc.symbols.clock_gettime(CLOCK_MONOTONIC, timespec);
      return toNs();
    };
  }
  const deno = denoApi() as unknown as {
    dlopen?(
      path: string,
      symbols: Record<string, unknown>,
    ): { symbols: { clock_gettime(clock: number, out: BigInt64Array): number } };
  } | null;
  if (deno?.dlopen) {
    const libc = deno.dlopen('libc.so.6', { clock_gettime: { parameters: ['i32', 'buffer'], result: 'i32' } });
    return () => {
      libc.symbols.clock_gettime(CLOCK_MONOTONIC, timespec);
      return toNs();
    };
  }
  return null;
}
