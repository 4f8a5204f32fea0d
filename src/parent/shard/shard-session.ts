/**
 * One shard's part in a sharded run, from the first cell to the last: shard 0
 * serves the barrier, the others estimate their clock offset from it, and each
 * cell round gets a gate its window opens through. What the shard learned goes
 * into its result as ShardInfo.
 */
import { UsageError } from '../../shared/types/errors.js';
import { HISTOGRAM_OPTIONS } from '../../shared/measure/metrics.js';
import type { CellGate, WindowCoordinator } from '../engine/coordination.js';
import { BarrierClient, type ClockEstimate } from './barrier-client.js';
import { preciseEpochMs, type Release } from './barrier-protocol.js';
import { BarrierServer } from './barrier-server.js';
import { DEFAULT_BARRIER_LISTEN, DEFAULT_BARRIER_TIMEOUT_MS, type ShardOptions } from './shard-options.js';
import type { ShardInfo } from '../../shared/types/shard-types.js';
import { hostText } from '../../shared/listen-address.js';

export class ShardSession implements WindowCoordinator {
  private barrier: BarrierServer | null = null;
  private client: BarrierClient | null = null;
  private clock: ClockEstimate | null = null;
  /** When the first window opened (barrier) or was due (start-at), epoch ms. */
  private startedAtEpochMs: number | null = null;
  private readonly pending = new Set<Promise<void>>();
  /** Why this shard cannot take part (no barrier to serve or reach): every cell fails with it. */
  failure: string | null = null;

  private constructor(readonly options: ShardOptions) {}

  get index(): number {
    return this.options.index;
  }

  get count(): number {
    return this.options.count;
  }

  /**
   * Shard 0 starts serving the barrier; the others wait for it and measure their clock offset.
   * A barrier of another run is a usage error (thrown); one that cannot be served or reached is this shard's `failure`.
   */
  static async open(options: ShardOptions, signal: AbortSignal): Promise<ShardSession> {
    const session = new ShardSession(options);
    const start = options.start;
    if (start.mode !== 'barrier') return session;
    const timeoutMs = start.timeoutMs ?? DEFAULT_BARRIER_TIMEOUT_MS;
    try {
      if (options.index === 0) {
        session.barrier = new BarrierServer(options.runId, options.count, timeoutMs);
        const listen = start.listen ?? DEFAULT_BARRIER_LISTEN;
        // The shards reach it by the host of their --barrier URL (a DNS name in Kubernetes): that name is its own.
        const address = await session.barrier.listen(listen.host, listen.port, [barrierUrlHost(start.url)]);
        options.onBarrierListening?.(`${hostText(address.address)}:${address.port}`, {
          host: address.address,
          port: address.port,
        });
      } else {
        session.client = new BarrierClient(start.url, options.runId, options.count, options.index, timeoutMs);
        session.clock = await session.client.estimateClock(signal);
      }
    } catch (error) {
      if (error instanceof UsageError) throw error;
      session.failure = (error as Error).message.split('\n')[0]!;
    }
    return session;
  }

  /** The gate of cell `cell` (its position in the run's expansion) in round `round`. */
  gate(cell: number, round: number): CellGate {
    const start = this.options.start;
    if (start.mode === 'start-at') {
      return {
        arrive: (signal) => this.waitForStartTime(start.atEpochMs, signal),
        withdraw: () => undefined,
      };
    }
    return {
      arrive: async (signal) => {
        const release = await this.checkIn(cell, round, signal);
        this.startedAtEpochMs ??= preciseEpochMs();
        return releaseNotes(release);
      },
      withdraw: (reason) => this.withdraw(cell, round, reason),
    };
  }

  /** What the result says about this shard. */
  info(configHash: string): ShardInfo {
    const start = this.options.start;
    const own = this.options.index === 0;
    return {
      runId: this.options.runId,
      index: this.options.index,
      count: this.options.count,
      configHash,
      histogram: {
        lowestDiscernibleValue: HISTOGRAM_OPTIONS.lowestDiscernibleValue,
        highestTrackableValue: HISTOGRAM_OPTIONS.highestTrackableValue,
        significantDigits: HISTOGRAM_OPTIONS.numberOfSignificantValueDigits,
      },
      start: {
        mode: start.mode,
        atEpochMs: start.mode === 'start-at' ? start.atEpochMs : Math.round(this.startedAtEpochMs ?? 0),
      },
      clockOffsetMs: own ? 0 : this.clock ? round3(this.clock.offsetMs) : null,
      clockRttMs: own ? 0 : this.clock ? round3(this.clock.rttMs) : null,
      monotonicOffsetMs: own ? 0 : this.clock ? round3(this.clock.monotonicOffsetMs) : null,
    };
  }

  /** Lets withdrawals finish and stops the barrier (shard 0 runs its last cell with the others, so nobody still needs it). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.pending]);
    await this.barrier?.close();
  }

  private async checkIn(cell: number, round: number, signal: AbortSignal): Promise<Release> {
    if (this.client) return this.client.checkIn(cell, round, signal);
    const waiting = this.barrier!.checkIn({
      runId: this.options.runId,
      count: this.options.count,
      shard: 0,
      cell,
      round,
    });
    return new Promise<Release>((resolve, reject) => {
      const stop = (): void => reject(new Error('interrupted'));
      signal.addEventListener('abort', stop, { once: true });
      waiting.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
    });
  }

  private withdraw(cell: number, round: number, reason: string): void {
    const done = this.client
      ? this.client.withdraw(cell, round, reason)
      : this.barrier!.checkIn({
          runId: this.options.runId,
          count: this.options.count,
          shard: 0,
          cell,
          round,
          withdraw: reason,
        }).then(
          () => undefined,
          () => undefined,
        );
    this.pending.add(done);
    void done.finally(() => this.pending.delete(done));
  }

  /** Start-at: every shard's first window opens at that time; later ones open when this shard is ready. */
  private async waitForStartTime(atEpochMs: number, signal: AbortSignal): Promise<string[]> {
    const first = this.startedAtEpochMs === null;
    this.startedAtEpochMs = atEpochMs;
    const waitMs = atEpochMs - Date.now();
    if (!first)
      return [
        '--start-at lines up only the first window: this one opened when this shard was ready (--barrier lines up every cell)',
      ];
    if (waitMs < 0)
      return [
        `--start-at: this shard was ready ${Math.round(-waitMs)} ms after the start time: its window opened late`,
      ];
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(done, waitMs);
      signal.addEventListener('abort', stop, { once: true });
      function done(): void {
        signal.removeEventListener('abort', stop);
        resolve();
      }
      function stop(): void {
        clearTimeout(timer);
        reject(new Error('interrupted'));
      }
    });
    return [];
  }
}

/** Notes for the cell: who the window opened without. Worded alike on every shard, so the merge keeps one of each. */
function releaseNotes(release: Release): string[] {
  const notes: string[] = [];
  if (release.missing.length > 0) {
    const who = release.missing.length > 1 ? `shards ${release.missing.join(', ')}` : `shard ${release.missing[0]}`;
    const why =
      release.waitedMs >= release.timeoutMs
        ? `did not check in within ${(release.timeoutMs / 1000).toFixed(1)} s`
        : 'missed an earlier cell and was not waited for';
    notes.push(`barrier: ${who} ${why}: the window opened without ${release.missing.length > 1 ? 'them' : 'it'}`);
  }
  for (const { shard, reason } of release.withdrawn) notes.push(`barrier: shard ${shard} sat this cell out: ${reason}`);
  return notes;
}

/** The host of the --barrier URL, without brackets (checkShardOptions made sure it parses). */
function barrierUrlHost(url: string): string {
  return new URL(url).hostname.replace(/^\[|\]$/g, '');
}

const round3 = (value: number): number => Math.round(value * 1000) / 1000;
