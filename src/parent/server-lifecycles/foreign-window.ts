/**
 * The measurement window as a foreign server sees it. It gets no IPC "go": each
 * scenario's protocol says what opens its window (docs/protocols/). What wsbench
 * does itself is read the server's optional stats route when the window opens
 * and after the clients finished, and keep the difference as the server's
 * counters; without that route the server-side metrics are null, with a note.
 */
import { monotonicUs } from '../../shared/measure/clock.js';
import type { ServerReport } from './types.js';
import type { ClientTls } from '../../shared/types/adapter-types.js';
import { counterDifference, readStats, STATS_PATH, type StatsReading } from './stats.js';

export class ForeignWindow {
  /** Set once the server's address is known. */
  httpOrigin: string | null = null;
  readonly notes: string[] = [];
  private before: StatsReading | null = null;
  private openedUs = 0;

  /** `tls`: what the stats reader trusts over https://, as the cell's clients do. */
  /** `quietWithoutStats`: the scenario declares no server-side metric, so a server without a stats route lacks nothing worth a note (a route that fails is still said). */
  constructor(
    private readonly scenario: string,
    private readonly tls?: ClientTls,
    private readonly quietWithoutStats = false,
  ) {}

  async open(signal: AbortSignal): Promise<void> {
    this.openedUs = monotonicUs();
    this.before = this.httpOrigin ? await readStats(this.httpOrigin, this.scenario, signal, this.tls) : null;
  }

  async report(): Promise<ServerReport | null> {
    const after = this.httpOrigin
      ? await readStats(this.httpOrigin, this.scenario, undefined, this.tls)
      : { missing: 'no address' };
    if ('missing' in after) {
      if (!(this.quietWithoutStats && after.absent))
        this.notes.push(
          `server-side metrics not reported: ${after.missing} (see docs/protocols/README.md, ${STATS_PATH})`,
        );
      return null;
    }
    const before = this.before && 'counters' in this.before ? this.before.counters : {};
    return {
      report: {
        histograms: {},
        counters: counterDifference(before, after.counters),
        eventLoopUtilization: null,
        windowMs: this.openedUs === 0 ? 0 : (monotonicUs() - this.openedUs) / 1000,
        notes: [],
      },
      stackDrops: null,
      complete: 'listed',
    };
  }
}
