/**
 * The publishers' clock: publication n is due `n x intervalUs` after the start,
 * and is sent stamped with that due time even when the timer fires late (then
 * every publication already due goes at once), so a stall shows in the
 * subscribers' latencies instead of thinning the schedule.
 */
import { encodePublication } from './schedule.js';

export interface Schedule {
  total: number;
  intervalUs: number;
  size: number;
  nowUs(): number;
  signal: AbortSignal;
  /** Publication n is due: the process's publisher of it sends it (others skip it). */
  send(n: number, payload: string): void;
}

/** Resolves once every publication was sent, or when the signal aborts. */
export function runSchedule(s: Schedule): Promise<void> {
  const startUs = s.nowUs();
  let next = 0;
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = (): void => {
      clearTimeout(timer);
      s.signal.removeEventListener('abort', stop);
      resolve();
    };
    const sendDue = (): void => {
      const nowUs = s.nowUs();
      for (; next < s.total && startUs + next * s.intervalUs <= nowUs; next++) {
        s.send(next, encodePublication(next, startUs + next * s.intervalUs, s.size));
      }
      if (next >= s.total) return stop();
      // Timers may fire early (Bun's do): the loop above then sends nothing and waits again.
      timer = setTimeout(sendDue, Math.max(0, (startUs + next * s.intervalUs - s.nowUs()) / 1000));
    };
    s.signal.addEventListener('abort', stop, { once: true });
    sendDue();
  });
}
