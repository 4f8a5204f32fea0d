/**
 * What the open model's sends record in every client process, under fixed
 * names whether the scenario declares them or not, and the thresholds the
 * engine judges them by (schedule-lag.ts). Imports nothing: the client half
 * loads it, in a browser page too.
 */

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
