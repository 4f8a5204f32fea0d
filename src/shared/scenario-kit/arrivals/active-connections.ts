/**
 * Stages of the closed loop: the connections are all opened before the window
 * (as many as the highest stage asks), and connection i takes part while the
 * stages' line stands above i (k6's ramping virtual users). One that is not
 * active finishes what it has in flight and waits, on one timer, for the line
 * to reach it again.
 */
import type { Stage } from '../../types/declaration-types.js';
import { RateCurve } from './rate-curve.js';

/** The connections a closed loop opens: the most any point of the stages asks for, and at least `start`. */
export function closedLoopConnections(start: number, stages: readonly Stage[]): number {
  return Math.max(start, ...stages.map((s) => Math.ceil(s.target)));
}

export class ActiveConnections {
  private readonly curve: RateCurve;

  /** `start`: connections active as the window opens; `originUs`: when it opened, on `nowUs`'s clock. */
  constructor(
    start: number,
    stages: readonly Stage[],
    private readonly originUs: number,
    private readonly nowUs: () => number,
  ) {
    this.curve = new RateCurve(start, stages);
  }

  /** Whether connection `index` takes part now. */
  isActive(index: number, nowUs = this.nowUs()): boolean {
    return Math.round(this.curve.rateAt((nowUs - this.originUs) / 1e6)) > index;
  }

  /** Resolves when connection `index` takes part (at once if it does), or when `signal` aborts. */
  whenActive(index: number, signal: AbortSignal): Promise<void> {
    const nowUs = this.nowUs();
    if (signal.aborted || this.isActive(index, nowUs)) return Promise.resolve();
    const atS = this.curve.firstAtOrAbove(index + 0.5, (nowUs - this.originUs) / 1e6);
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      // Never active again: only the window's end lets it go.
      const timer =
        atS === null ? undefined : setTimeout(done, Math.max(0, (this.originUs + atS * 1e6 - nowUs) / 1000 + 1));
      signal.addEventListener('abort', done, { once: true });
    });
  }
}
