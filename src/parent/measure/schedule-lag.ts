/**
 * How far a load generator's sends fell behind their schedule (the open
 * model), judged from what its client processes recorded (send-schedule.ts).
 * Latency is timed from each message's due time, so a late send never hides
 * delay; but a generator that cannot keep its schedule offers a load other
 * than the one asked for, and the cell must say so.
 */
import type { CellMeasurements } from '../../shared/types/result-types.js';
import { summarizeEncoded } from '../../shared/measure/metrics.js';
import { BEHIND_SCHEDULE_MS, LATE_SEND_MS, SEND_SCHEDULE } from '../../shared/measure/send-schedule.js';

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
  return `load generator behind its schedule: ${parts.join(', ')}; the server was offered less, and less evenly, than asked`;
}

/** What to do about a generator behind its schedule: more processes when it used its core, a quieter machine when not. */
export function behindAdvice(saturated: boolean): string {
  return saturated
    ? 'spread the load over more client processes (--client-procs), or lower the rate'
    : 'it did not use its core: it waited for one, so the machine was busy; free its cores, or lower the rate';
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
