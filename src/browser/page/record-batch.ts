/**
 * What the page's scenario records, held until the next flush: values only, in
 * the units the engine's recorders take, rounded as they round (a latency to
 * whole µs, at least 1), so a batch is short and the client process records
 * exactly what a recorder in its own process would have.
 */
import type { RecordBatch } from '../../shared/browser-bridge.js';
import type { Counter, Recorder, SizeRecorder } from '../../shared/types/scenario-types.js';

const wholeUs = (valueUs: number): number => (valueUs < 1 ? 1 : Math.round(valueUs));

export class RecordBatcher {
  private us = new Map<string, number[]>();
  private usInterval = new Map<string, number[]>();
  private bytes = new Map<string, number[]>();
  private added = new Map<string, number>();
  /** Counter totals on this page, for Counter.value(). */
  private readonly totals = new Map<string, number>();
  private pending = false;

  histogram(name: string): Recorder {
    return {
      recordUs: (valueUs) => this.push(this.us, name, wholeUs(valueUs)),
      recordUsWithInterval: (valueUs, intervalUs) =>
        this.push(this.usInterval, name, wholeUs(valueUs), Math.max(1, Math.round(intervalUs))),
    };
  }

  sizeHistogram(name: string): SizeRecorder {
    return { recordBytes: (bytes) => this.push(this.bytes, name, bytes < 1 ? 1 : Math.round(bytes)) };
  }

  counter(name: string): Counter {
    // Made is measured: the client process makes it too with the next batch, so a count that stays 0 reads 0, not "not recorded".
    if (!this.totals.has(name)) {
      this.totals.set(name, 0);
      this.added.set(name, this.added.get(name) ?? 0);
      this.pending = true;
    }
    return {
      add: (amount = 1) => {
        this.totals.set(name, (this.totals.get(name) ?? 0) + amount);
        this.added.set(name, (this.added.get(name) ?? 0) + amount);
        this.pending = true;
      },
      value: () => this.totals.get(name) ?? 0,
    };
  }

  /** What was recorded since the last take; null when nothing was. */
  take(): RecordBatch | null {
    if (!this.pending) return null;
    const batch: RecordBatch = { t: 'records' };
    if (this.us.size > 0) batch.us = Object.fromEntries(this.us);
    if (this.usInterval.size > 0) batch.usInterval = Object.fromEntries(this.usInterval);
    if (this.bytes.size > 0) batch.bytes = Object.fromEntries(this.bytes);
    if (this.added.size > 0) batch.add = Object.fromEntries(this.added);
    this.us = new Map();
    this.usInterval = new Map();
    this.bytes = new Map();
    this.added = new Map();
    this.pending = false;
    return batch;
  }

  private push(into: Map<string, number[]>, name: string, ...values: number[]): void {
    let list = into.get(name);
    if (!list) into.set(name, (list = []));
    list.push(...values);
    this.pending = true;
  }
}
