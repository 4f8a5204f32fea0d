/**
 * Live progress on stderr, only for a person watching a terminal: the current
 * cell, its elapsed time and live message counts. Silent otherwise.
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

export function createProgress(stream: Writable, enabled: boolean): Progress {
  if (!enabled) return { cellStart() {}, cellEnd() {}, counters() {}, done() {} };
  let label = '';
  let startedAt = 0;
  let lastReceived = 0;
  let lastAt = 0;
  return {
    cellStart(cell, index, total) {
      label = `[${index + 1}/${total}] ${cell.loaded.scenario.name} ${cell.server} x ${cell.client}`;
      startedAt = lastAt = Date.now();
      lastReceived = 0;
      stream.write(`\r\x1b[K${label} starting`);
    },
    counters(counters) {
      const now = Date.now();
      const received = counters.received ?? 0;
      const rate = now > lastAt ? ((received - lastReceived) * 1000) / (now - lastAt) : 0;
      lastReceived = received;
      lastAt = now;
      stream.write(`\r\x1b[K${label}  ${((now - startedAt) / 1000).toFixed(0)}s  ${Math.round(rate)} msg/s`);
    },
    cellEnd(result, index, total) {
      const head = `[${index + 1}/${total}] ${result.scenario} ${result.server} x ${result.client}`;
      stream.write(`\r\x1b[K${head}: ${result.status}${result.reason ? ` (${result.reason})` : ''}\n`);
    },
    done() {
      stream.write('\r\x1b[K');
    },
  };
}
