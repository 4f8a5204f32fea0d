/**
 * How far a load generator's sends fell behind their schedule (the open
 * model): what the client processes record under fixed names, whether the
 * scenario declares them or not, and the judgement the engine reads off them.
 * Latency is timed from each message's due time, so a late send never hides
 * delay; but a generator that cannot keep its schedule offers a load other
 * than the one asked for, and the cell must say so.
 */
import type { CellMeasurements } from '../result-types.js';
import { summarizeEncoded } from './metrics.js';

/** The names the open model's sends are recorded under in every client process. */
export const SEND_SCHEDULE = {
  /** Histogram (µs): how long after its due time each message went out. */
  lag: 'sendLag',
  /** Counter: messages sent more than LATE_SEND_MS after their due time. */
  late: 'sendsLate',
  /** Counter: messages due more than BEHIND_SCHEDULE_MS before the window closed that never went out. */
  missed: 'sendsMissed',
  /** Counter: messages sent on schedule (on time or late). */
  sent: 'sendsScheduled',
} as const;

/**
 * A send is late past this: Node's timers fire on a 1 ms clock, so a send up to about 1 ms after its due
 * time is the timer's resolution, not a generator falling behind.
 */
export const LATE_SEND_MS = 2;
/**
 * A generator whose p99 lag reaches this could not keep its schedule; so could one that never sent messages
 * due this long before the window closed (those due just before it may only have met the close mid-batch).
 */
export const BEHIND_SCHEDULE_MS = 10;
/** Late sends above this share of a cell's are listed under the table (below it, the timer's jitter). */
export const LATE_SHARE_SHOWN = 0.01;

/** Why the load generator could not keep its schedule, in words; null when it kept it or sent nothing on one. */
export function behindSchedule(measurements: Pick<CellMeasurements, 'histograms' | 'counters'>): string | null {
  const sent = measurements.counters[SEND_SCHEDULE.sent] ?? 0;
  const missed = measurements.counters[SEND_SCHEDULE.missed] ?? 0;
  const late = measurements.counters[SEND_SCHEDULE.late] ?? 0;
  if (sent === 0 && missed === 0) return null;
  const encoded = measurements.histograms[SEND_SCHEDULE.lag];
  const lag = encoded ? summarizeEncoded(encoded) : null;
  const p99Ms = lag?.p99Ms ?? 0;
  if (missed === 0 && p99Ms < BEHIND_SCHEDULE_MS) return null;
  const parts = [
    missed > 0 ? `${missed} of ${sent + missed} messages due never went out` : null,
    late > 0 ? `${late} went out more than ${LATE_SEND_MS} ms late` : null,
    lag ? `send lag p99 ${formatMs(lag.p99Ms)}, worst ${formatMs(lag.maxMs)}` : null,
  ].filter((part): part is string => part !== null);
  return `load generator behind its schedule: ${parts.join(', ')}; the server was offered less, and less evenly, than asked (spread the load over more client processes, --client-procs, or lower the rate)`;
}

/** Late and missed sends, and the worst lag, for a table note; null without scheduled sends. */
export function scheduleSummary(
  measurements: Pick<CellMeasurements, 'histograms' | 'counters'>,
): { sent: number; late: number; missed: number; worstLagMs: number | null } | null {
  const sent = measurements.counters[SEND_SCHEDULE.sent] ?? 0;
  const missed = measurements.counters[SEND_SCHEDULE.missed] ?? 0;
  if (sent === 0 && missed === 0) return null;
  const encoded = measurements.histograms[SEND_SCHEDULE.lag];
  return {
    sent,
    late: measurements.counters[SEND_SCHEDULE.late] ?? 0,
    missed,
    worstLagMs: encoded ? (summarizeEncoded(encoded)?.maxMs ?? null) : null,
  };
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
}
