/**
 * The open model's clock in one client process: every connection's next due
 * time in one heap, one timer set for the earliest, and on each wake every
 * message already due goes out, in due order, whatever came back. So a stall
 * of the server never thins the schedule, and a stall of this process sends
 * what fell due meanwhile at once (each still timed from its own due time).
 *
 * What the schedule cost is recorded under fixed names (measure/send-schedule.ts):
 * each send's lag behind its due time, the sends past LATE_SEND_MS, and, when
 * the window closes, the messages that fell due and never went out.
 */
import type { Counter, Recorder } from '../../types/recorder-types.js';
import { BEHIND_SCHEDULE_MS, LATE_SEND_MS, SEND_SCHEDULE } from '../../measure/send-schedule.js';
import type { DueTimes } from './due-times.js';

/** Sends one message: `n` counts this connection's scheduled messages from 0; both times on ctx.nowUs()'s clock. */
type PacedSend = (n: number, dueUs: number, nowUs: number) => void;

/** More missed messages than this are not counted one by one at the window's end (the count says "at least"). */
const MISSED_COUNT_LIMIT = 10_000_000;
const LATE_US = LATE_SEND_MS * 1000;
/** Sends in one wake at most: past them, the rest of what is due waits one turn of the event loop. */
const BATCH_LIMIT = 512;

interface Entry {
  dueUs: number;
  n: number;
  times: DueTimes;
  send: PacedSend;
  finished: () => void;
  failed: (error: unknown) => void;
}

interface PacerLink {
  nowUs(): number;
  histogram(name: string): Recorder;
  counter(name: string): Counter;
  /** The window: the schedule stops when it closes. */
  signal: AbortSignal;
}

export class Pacer {
  private readonly heap: Entry[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerDueUs = Number.POSITIVE_INFINITY;
  private readonly lag: Recorder;
  private readonly late: Counter;
  private readonly sent: Counter;
  private stopped = false;

  /** `originUs`: when the window opened (due times count from it). */
  constructor(
    private readonly link: PacerLink,
    private readonly originUs: number,
  ) {
    this.lag = link.histogram(SEND_SCHEDULE.lag);
    this.late = link.counter(SEND_SCHEDULE.late);
    this.sent = link.counter(SEND_SCHEDULE.sent);
    if (link.signal.aborted) this.stopped = true;
    else link.signal.addEventListener('abort', () => this.stop(), { once: true });
  }

  /**
   * Sends on `times` until they run out or the window closes, and resolves then; rejects with what a send
   * threw (a connection that is gone), and sends no more on it.
   */
  run(times: DueTimes, send: PacedSend): Promise<void> {
    return new Promise((finished, failed) => {
      const first = times.next(); // a timetable that throws here rejects the promise: the executor catches it
      if (this.stopped || first === null) return finished();
      this.push({ dueUs: this.originUs + first, n: 0, times, send, finished, failed });
      this.arm();
    });
  }

  private readonly wake = (): void => {
    this.timer = null;
    this.timerDueUs = Number.POSITIVE_INFINITY;
    const heap = this.heap;
    let nowUs = this.link.nowUs();
    // Counted here and added once a wake: a counter's closure per message is a cost the bare client has not.
    let sent = 0;
    let late = 0;
    while (!this.stopped && heap.length > 0 && heap[0]!.dueUs <= nowUs) {
      // A generator far behind sends what fell due in slices, so replies and the window's close still get the loop.
      if (sent >= BATCH_LIMIT) {
        this.timer = setTimeout(this.wake, 0);
        this.timerDueUs = nowUs;
        break;
      }
      const entry = heap[0]!;
      let next: number | null;
      try {
        entry.send(entry.n, entry.dueUs, nowUs);
        const lagUs = nowUs - entry.dueUs;
        this.lag.recordUs(lagUs);
        if (lagUs > LATE_US) late += 1;
        sent += 1;
        next = entry.times.next();
      } catch (error) {
        // A connection that is gone, or a timetable that broke: that connection sends no more.
        this.pop();
        entry.failed(error);
        continue;
      }
      if (next === null) {
        this.pop();
        entry.finished();
      } else {
        entry.dueUs = this.originUs + next;
        entry.n += 1;
        this.siftDown(0);
      }
      // A long batch takes time of its own: the next send's lag counts it.
      nowUs = this.link.nowUs();
    }
    if (sent > 0) this.sent.add(sent);
    if (late > 0) this.late.add(late);
    if (this.timer === null) this.arm();
  };

  private arm(): void {
    if (this.stopped || this.heap.length === 0) return;
    const dueUs = this.heap[0]!.dueUs;
    if (this.timer !== null && this.timerDueUs <= dueUs) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timerDueUs = dueUs;
    // Timers run on a 1 ms clock and may fire early (Bun's do): a wake with nothing due arms again.
    this.timer = setTimeout(this.wake, Math.max(0, (dueUs - this.link.nowUs()) / 1000));
  }

  /**
   * The window closed: what fell due more than BEHIND_SCHEDULE_MS before now and never went out is missed (a
   * message due just before the close may only have met it in the middle of a batch).
   */
  private stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const cutoffUs = this.link.nowUs() - BEHIND_SCHEDULE_MS * 1000;
    let missed = 0;
    for (const entry of this.heap) {
      try {
        for (let due: number | null = entry.dueUs; due !== null && due < cutoffUs && missed < MISSED_COUNT_LIMIT; ) {
          missed += 1;
          const next = entry.times.next();
          due = next === null ? null : this.originUs + next;
        }
      } catch {
        // A timetable that broke past the window: what it gave up to there is counted.
      }
      entry.finished();
    }
    this.heap.length = 0;
    if (missed > 0) this.link.counter(SEND_SCHEDULE.missed).add(missed);
  }

  private push(entry: Entry): void {
    const heap = this.heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]!.dueUs <= entry.dueUs) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = entry;
  }

  private pop(): void {
    const heap = this.heap;
    const last = heap.pop()!;
    if (heap.length === 0) return;
    heap[0] = last;
    this.siftDown(0);
  }

  private siftDown(start: number): void {
    const heap = this.heap;
    const entry = heap[start]!;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && heap[right]!.dueUs < heap[left]!.dueUs ? right : left;
      if (heap[child]!.dueUs >= entry.dueUs) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = entry;
  }
}
