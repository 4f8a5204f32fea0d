/**
 * Opens many connections at a controlled rate, with a deadline per connection,
 * and keeps going when some fail: a load step that cannot open everything must
 * still report what it got and why.
 */

/** Why a connection could not open, as the ladder tables count it. */
export type ConnectFailure = 'EMFILE' | 'EADDRNOTAVAIL' | 'ETIMEDOUT' | 'ECONNREFUSED' | 'other';
export const CONNECT_FAILURES: readonly ConnectFailure[] = [
  'EMFILE',
  'EADDRNOTAVAIL',
  'ETIMEDOUT',
  'ECONNREFUSED',
  'other',
];

/** Reads the errno name out of an adapter's rejection text (stacks word the rest differently). */
function classifyConnectError(message: string): ConnectFailure {
  if (/\bE[MN]FILE\b/.test(message)) return 'EMFILE';
  if (/\bEADDRNOTAVAIL\b|\bEADDRINUSE\b/.test(message)) return 'EADDRNOTAVAIL';
  if (/\bETIMEDOUT\b|timed out|timeout/i.test(message)) return 'ETIMEDOUT';
  if (/\bECONNREFUSED\b/.test(message)) return 'ECONNREFUSED';
  return 'other';
}

/** Spacing of the opener's timer; finer only burns CPU the connections need. */
const PACING_TICK_MS = 10;

export interface PacedOpenOptions<T> {
  count: number;
  /** Attempts started per second; Infinity: as fast as `atOnce` allows. */
  ratePerSec: number;
  /** At most this many attempts in flight at once (default no limit): more at a time only measures the kernel's SYN queue. */
  atOnce?: number;
  timeoutMs: number;
  signal: AbortSignal;
  open(index: number): Promise<T>;
  /** Runs once connection 0 is open (or failed), before the others start. */
  onFirstOpened?(): void;
  /** Disposes of a connection that opened after its deadline (it no longer counts). */
  discard(late: T): void;
  onFailure(index: number, reason: ConnectFailure, message: string): void;
}

/** Starts `open(i)` for i = 0..count-1 at `ratePerSec`; resolves with the ones that opened in time. */
export async function openPaced<T>(options: PacedOpenOptions<T>): Promise<T[]> {
  const { count, ratePerSec, signal } = options;
  const opened: T[] = [];
  const attempts: Promise<void>[] = [];
  let next = 0;
  if (count > 0 && options.onFirstOpened) {
    // Alone and awaited, so whatever the first connection costs can be told from the rest.
    await attempt(options, next++, opened);
    options.onFirstOpened();
  }
  const paceFrom = next;
  const startedAt = Date.now();
  const atOnce = options.atOnce ?? Number.POSITIVE_INFINITY;
  let inFlight = 0;
  let slotFreed: () => void = () => undefined;
  while (next < count && !signal.aborted) {
    const due = Number.isFinite(ratePerSec)
      ? Math.min(count, paceFrom + Math.floor(((Date.now() - startedAt) / 1000) * ratePerSec) + 1)
      : count;
    for (; next < due && inFlight < atOnce; next++) {
      inFlight += 1;
      attempts.push(
        attempt(options, next, opened).finally(() => {
          inFlight -= 1;
          slotFreed();
        }),
      );
    }
    if (next >= count) break;
    // Wait for the next tick of the pace, or, when every slot is taken, for a slot.
    await new Promise<void>((resolve) => {
      if (inFlight < atOnce) setTimeout(resolve, PACING_TICK_MS);
      else
        slotFreed = () => {
          slotFreed = () => undefined;
          resolve();
        };
    });
  }
  await Promise.all(attempts);
  return opened;
}

async function attempt<T>(options: PacedOpenOptions<T>, index: number, opened: T[]): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const pending = options.open(index);
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(new Error(`ETIMEDOUT: not open after ${options.timeoutMs} ms`));
    }, options.timeoutMs);
  });
  try {
    opened.push(await Promise.race([pending, deadline]));
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
    options.onFailure(index, classifyConnectError(message), message);
    if (timedOut) pending.then(options.discard, () => undefined);
  } finally {
    clearTimeout(timer);
  }
}
