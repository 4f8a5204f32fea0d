/**
 * Live progress on stderr, only for a person watching a terminal: the current
 * cell, its elapsed and remaining time, and live rates of the summed client
 * counters `received` (msg/s) and `rxBytes` (MB/s) when the scenario keeps
 * them. Silent otherwise. The line is rebuilt by `progressLine`, a pure
 * function, so what it says is testable without a terminal.
 */
import type { Writable } from 'node:stream';
import type { CellResult } from '../result-types.js';
import type { CellPlan } from '../core/cell.js';

export interface Progress {
  cellStart(cell: CellPlan, index: number, total: number): void;
  cellEnd(result: CellResult, index: number, total: number): void;
  counters(counters: Record<string, number>): void;
  done(): void;
}

/** Counters whose first movement means the measurement window is open (they stay 0 while connecting). */
const WINDOW_COUNTERS = ['received', 'rxBytes', 'sent'];

export interface ProgressState {
  label: string;
  /** Window length from the scenario, undefined when it runs until its clients finish. */
  windowMs: number | undefined;
  cellStartedAt: number;
  /** When the window counters first moved; null while connecting. */
  windowOpenedAt: number | null;
  /** msg/s and MB/s over the last interval, when the counters exist. */
  messagesPerSec: number | null;
  megabytesPerSec: number | null;
}

export function progressLine(state: ProgressState, now: number): string {
  const parts = [state.label, `${Math.floor((now - state.cellStartedAt) / 1000)}s`];
  if (state.windowOpenedAt === null) parts.push('connecting');
  else if (state.windowMs !== undefined) {
    const leftMs = state.windowMs - (now - state.windowOpenedAt);
    parts.push(leftMs > 0 ? `${Math.ceil(leftMs / 1000)}s left` : 'wrapping up');
  }
  if (state.messagesPerSec !== null) parts.push(`${Math.round(state.messagesPerSec).toLocaleString('en-US')} msg/s`);
  if (state.megabytesPerSec !== null) parts.push(`${state.megabytesPerSec.toFixed(1)} MB/s`);
  return parts.join('  ');
}

export function createProgress(stream: Writable, enabled: boolean, clock: () => number = Date.now): Progress {
  if (!enabled) return { cellStart() {}, cellEnd() {}, counters() {}, done() {} };
  let state: ProgressState | null = null;
  let last: { at: number; counters: Record<string, number> } | null = null;
  const rate = (name: string, counters: Record<string, number>, now: number, scale: number): number | null => {
    if (counters[name] === undefined) return null;
    if (!last || now <= last.at) return 0;
    return (((counters[name] ?? 0) - (last.counters[name] ?? 0)) * 1000) / (now - last.at) / scale;
  };
  return {
    cellStart(cell, index, total) {
      const now = clock();
      state = {
        label: `[${index + 1}/${total}] ${cell.loaded.scenario.name} ${cell.server} x ${cell.client}`,
        windowMs: cell.loaded.scenario.windowMs?.(cell.params),
        cellStartedAt: now,
        windowOpenedAt: null,
        messagesPerSec: null,
        megabytesPerSec: null,
      };
      last = null;
      stream.write(`\r\x1b[K${state.label}  starting`);
    },
    counters(counters) {
      if (!state) return;
      const now = clock();
      const watched = WINDOW_COUNTERS.filter((name) => counters[name] !== undefined);
      const moved = (watched.length > 0 ? watched : Object.keys(counters)).some((name) => (counters[name] ?? 0) > 0);
      if (state.windowOpenedAt === null && moved) state.windowOpenedAt = now;
      state.messagesPerSec = rate('received', counters, now, 1);
      state.megabytesPerSec = rate('rxBytes', counters, now, 1e6);
      last = { at: now, counters };
      stream.write(`\r\x1b[K${progressLine(state, now)}`);
    },
    cellEnd(result, index, total) {
      const head = `[${index + 1}/${total}] ${result.scenario} ${result.server} x ${result.client}`;
      stream.write(`\r\x1b[K${head}: ${result.status}${result.reason ? ` (${result.reason})` : ''}\n`);
      state = null;
    },
    done() {
      stream.write('\r\x1b[K');
    },
  };
}
