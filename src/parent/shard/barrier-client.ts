/**
 * A shard's side of shard 0's barrier: check-ins that wait for the release,
 * and the time probe that estimates this shard's clock offset from shard 0.
 * Shard 0 may come up after the others (pods start in any order): a barrier
 * that cannot be reached yet is tried again until the barrier timeout.
 */
import http from 'node:http';
import { UsageError } from '../../shared/types/errors.js';
import { redactUrl } from '../redact/url-secrets.js';
import {
  CHECK_IN_PATH,
  monotonicMs,
  preciseEpochMs,
  TIME_PATH,
  type CheckIn,
  type Release,
  type TimeAnswer,
} from './barrier-protocol.js';

/** Round trips of one offset estimate, this far apart; the quickest one wins (a busy moment only makes a probe slower). */
const PROBES = 20;
const PROBE_SPACING_MS = 10;
/** Between two attempts to reach a barrier that is not there (yet). */
const RETRY_MS = 500;
/** A check-in waits this much beyond the barrier's own timeout before it gives up on the answer. */
const ANSWER_MARGIN_MS = 30_000;
/** A withdrawal is a courtesy: it never holds a shard up for longer than this. */
const WITHDRAW_LIMIT_MS = 5000;

/** This shard's clocks minus shard 0's, from the probe with the smallest round trip. */
export interface ClockEstimate {
  /** Wall clock (epoch ms) offset; windows are lined up with it. */
  offsetMs: number;
  /** CLOCK_MONOTONIC offset: what one-way delays stamped on one host and read on another are off by. */
  monotonicOffsetMs: number;
  /** Round trip of the probe the estimates come from: each is known within half of it. */
  rttMs: number;
}

/** The barrier said no: another run id or shard count (409). A usage error: one line, exit 2. */
export class BarrierRunMismatch extends UsageError {}

export class BarrierClient {
  /** The URL as messages show it (no password, no query values). */
  private readonly shown: string;

  constructor(
    readonly url: string,
    readonly runId: string,
    readonly count: number,
    readonly shard: number,
    readonly timeoutMs: number,
  ) {
    this.shown = redactUrl(url);
  }

  /** Waits for the barrier to answer, then keeps the best of a few round trips. */
  async estimateClock(signal: AbortSignal): Promise<ClockEstimate> {
    const path = `${TIME_PATH}?run=${encodeURIComponent(this.runId)}&count=${this.count}`;
    await this.withRetries(() => this.request('GET', path, null, 10_000), this.timeoutMs, signal);
    // One kept-alive connection: each probe then times a request alone, with no TCP handshake in it.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    let best: ClockEstimate | null = null;
    try {
      for (let i = 0; i < PROBES; i++) {
        await new Promise((resolve) => setTimeout(resolve, PROBE_SPACING_MS));
        const sentEpoch = preciseEpochMs();
        const sentMono = monotonicMs();
        const remote = (await this.request('GET', path, null, 10_000, agent)) as TimeAnswer;
        const backMono = monotonicMs();
        const backEpoch = preciseEpochMs();
        const rttMs = backMono - sentMono;
        if (best === null || rttMs < best.rttMs) {
          best = {
            offsetMs: (sentEpoch + backEpoch) / 2 - remote.epochMs,
            monotonicOffsetMs: (sentMono + backMono) / 2 - remote.monotonicMs,
            rttMs,
          };
        }
      }
    } finally {
      agent.destroy();
    }
    return best!;
  }

  /** Resolves when the barrier releases this cell round. */
  checkIn(cell: number, round: number, signal: AbortSignal): Promise<Release> {
    const body: CheckIn = { runId: this.runId, count: this.count, shard: this.shard, cell, round };
    return this.withRetries(
      () => this.request('POST', CHECK_IN_PATH, body, this.timeoutMs + ANSWER_MARGIN_MS),
      this.timeoutMs,
      signal,
    ) as Promise<Release>;
  }

  /** Tells the barrier not to wait for this shard in this cell round; never fails, never waits long. */
  async withdraw(cell: number, round: number, reason: string): Promise<void> {
    const body: CheckIn = { runId: this.runId, count: this.count, shard: this.shard, cell, round, withdraw: reason };
    await this.withRetries(
      () => this.request('POST', CHECK_IN_PATH, body, WITHDRAW_LIMIT_MS),
      WITHDRAW_LIMIT_MS,
      new AbortController().signal,
    ).catch(() => undefined);
  }

  /** Tries again while the barrier cannot be reached, until `limitMs`; an answer (even a refusal) ends it. */
  private async withRetries(attempt: () => Promise<unknown>, limitMs: number, signal: AbortSignal): Promise<unknown> {
    const deadline = Date.now() + limitMs;
    for (;;) {
      if (signal.aborted) throw new Error('interrupted');
      try {
        return await attempt();
      } catch (error) {
        if (!(error instanceof Unreachable)) throw error;
        if (Date.now() + RETRY_MS > deadline) {
          throw new Error(
            `barrier ${this.shown}: not reachable for ${Math.round(limitMs / 1000)} s (${error.message}); is shard 0 running?`,
          );
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, RETRY_MS);
          signal.addEventListener('abort', done, { once: true });
          function done(): void {
            clearTimeout(timer);
            signal.removeEventListener('abort', done);
            resolve();
          }
        });
      }
    }
  }

  private request(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    timeoutMs: number,
    agent: http.Agent | false = false,
  ): Promise<unknown> {
    const target = new URL(path, this.url);
    const payload = body === null ? null : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const request = http.request(target, {
        method,
        agent,
        headers:
          payload === null ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      });
      const timer = setTimeout(
        () => request.destroy(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`)),
        timeoutMs,
      );
      request.on('response', (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('error', (error) => finish(new Unreachable(error.message)));
        response.on('end', () => {
          let data: { error?: string } | null = null;
          try {
            data = JSON.parse(text) as { error?: string };
          } catch {
            // reported below
          }
          const status = response.statusCode ?? 0;
          if (status === 200 && data !== null) return finish(null, data);
          const said = data?.error ?? (text.trim().slice(0, 200) || 'no body');
          if (status === 409)
            return finish(new BarrierRunMismatch(`barrier ${this.shown} refused shard ${this.shard}: ${said}`));
          finish(new Error(`barrier ${this.shown}: HTTP ${status}: ${said}`));
        });
      });
      request.on('error', (error: NodeJS.ErrnoException) => finish(new Unreachable(error.code ?? error.message)));
      request.end(payload ?? undefined);
      function finish(error: Error | null, data?: unknown): void {
        clearTimeout(timer);
        if (error) reject(error);
        else resolve(data);
      }
    });
  }
}

/** The barrier could not be reached or broke off: worth another try. */
class Unreachable extends Error {}
