/**
 * The barrier shard 0 serves: for each cell round, every shard checks in once
 * its clients are connected, and all of them are released together, so every
 * measurement window opens at once. A shard that never comes does not hold the
 * others forever: after the timeout they are released without it, and it is
 * named missing. A shard that missed one release is not waited for again (a
 * killed shard costs one timeout, not one per cell), though it is still let in
 * if it arrives before a later release. Shard 0 checks in directly, in process.
 */
import http from 'node:http';
import { isIP, type AddressInfo } from 'node:net';
import { HostCheck } from '../host-check.js';
import { notAnAddress } from '../../shared/listen-address.js';
import {
  CHECK_IN_PATH,
  monotonicMs,
  preciseEpochMs,
  TIME_PATH,
  type CheckIn,
  type Release,
  type TimeAnswer,
} from './barrier-protocol.js';

/** Largest check-in body read; a check-in is under 300 bytes. */
const MAX_BODY_BYTES = 16_384;

/** Why a check-in is refused: 409 another run, 410 released without this shard, 400 not a check-in. */
class BarrierRefusal extends Error {
  constructor(
    readonly status: 400 | 409 | 410,
    message: string,
  ) {
    super(message);
  }
}

interface Round {
  firstAtMs: number;
  arrived: Map<number, (release: Release) => void>;
  withdrawn: Map<number, string>;
  timer: NodeJS.Timeout | null;
  released: Release | null;
  releasedAtMs: number;
}

export class BarrierServer {
  private readonly rounds = new Map<string, Round>();
  /** Shards that missed a release: later rounds do not wait for them. */
  private readonly givenUp = new Set<number>();
  private server: http.Server | null = null;

  constructor(
    readonly runId: string,
    readonly count: number,
    readonly timeoutMs: number,
  ) {}

  /** Resolves when the round releases; rejects with a BarrierRefusal (never throws: async). */
  async checkIn(request: CheckIn): Promise<Release> {
    this.checkRun(request.runId, request.count);
    if (!Number.isInteger(request.shard) || request.shard < 0 || request.shard >= this.count) {
      throw new BarrierRefusal(400, `shard ${request.shard} is not one of 0 .. ${this.count - 1}`);
    }
    const key = `${request.cell}/${request.round}`;
    let round = this.rounds.get(key);
    if (!round) {
      round = {
        firstAtMs: monotonicMs(),
        arrived: new Map(),
        withdrawn: new Map(),
        timer: null,
        released: null,
        releasedAtMs: 0,
      };
      const created = round;
      created.timer = setTimeout(() => this.release(created), this.timeoutMs);
      this.rounds.set(key, round);
    }
    if (round.released) {
      // A retry after a broken connection gets the same answer; a latecomer is told it missed the window.
      if (round.released.missing.includes(request.shard)) {
        const ago = Math.round(monotonicMs() - round.releasedAtMs);
        const waited = (round.released.timeoutMs / 1000).toFixed(1);
        throw new BarrierRefusal(
          410,
          `cell ${request.cell} round ${request.round}: the barrier released the other shards ${ago} ms ago, after waiting ${waited} s, without shard ${request.shard}`,
        );
      }
      return round.released;
    }
    this.givenUp.delete(request.shard);
    if (request.withdraw !== undefined) {
      round.withdrawn.set(request.shard, request.withdraw);
      round.arrived.delete(request.shard);
      this.releaseIfComplete(round);
      return round.released ?? { missing: [], withdrawn: [], waitedMs: 0, timeoutMs: this.timeoutMs };
    }
    const open = round;
    return new Promise<Release>((resolve) => {
      open.arrived.set(request.shard, resolve);
      this.releaseIfComplete(open);
    });
  }

  /** Shard 0's clocks, for a shard's offset estimate; refuses another run. */
  time(runId: string, count: number): TimeAnswer {
    this.checkRun(runId, count);
    return { runId: this.runId, epochMs: preciseEpochMs(), monotonicMs: monotonicMs() };
  }

  /**
   * Serves the barrier over HTTP on `host` (an IP literal: nothing is looked up); resolves with the address it
   * listens on. It answers requests addressed to that address (localhost on loopback, the machine's addresses
   * on 0.0.0.0 or ::) or to one of `names`, the host of the --barrier URL the shards were given.
   */
  listen(host: string, port: number, names: readonly string[] = []): Promise<AddressInfo> {
    if (isIP(host) === 0) return Promise.reject(new Error(`barrier: cannot listen on ${host}: ${notAnAddress(host)}`));
    const hosts = new HostCheck(host, names);
    const server = http.createServer((req, res) => {
      if (hosts.admit(req, res)) void this.handle(req, res);
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(new Error(`barrier: cannot listen on ${host}:${port}: ${error.code ?? error.message}`)),
      );
      server.listen(port, host, () => resolve(server.address() as AddressInfo));
    });
  }

  /** Releases whoever still waits (their shards carry on without the barrier) and stops listening. */
  async close(): Promise<void> {
    for (const round of this.rounds.values()) if (!round.released) this.release(round);
    const server = this.server;
    this.server = null;
    if (!server) return;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private checkRun(runId: string, count: number): void {
    if (runId !== this.runId) throw new BarrierRefusal(409, `this barrier serves run ${this.runId}, not ${runId}`);
    if (count !== this.count) throw new BarrierRefusal(409, `run ${this.runId} has ${this.count} shards, not ${count}`);
  }

  private releaseIfComplete(round: Round): void {
    for (let shard = 0; shard < this.count; shard++) {
      if (!round.arrived.has(shard) && !round.withdrawn.has(shard) && !this.givenUp.has(shard)) return;
    }
    this.release(round);
  }

  private release(round: Round): void {
    if (round.released) return;
    if (round.timer) clearTimeout(round.timer);
    const missing = Array.from({ length: this.count }, (_, i) => i).filter(
      (i) => !round.arrived.has(i) && !round.withdrawn.has(i),
    );
    for (const shard of missing) this.givenUp.add(shard);
    round.releasedAtMs = monotonicMs();
    round.released = {
      missing,
      withdrawn: [...round.withdrawn].map(([shard, reason]) => ({ shard, reason })).sort((a, b) => a.shard - b.shard),
      waitedMs: Math.round(round.releasedAtMs - round.firstAtMs),
      timeoutMs: this.timeoutMs,
    };
    for (const resolve of round.arrived.values()) resolve(round.released);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://barrier');
    try {
      if (req.method === 'GET' && url.pathname === TIME_PATH) {
        // Kept alive: a shard's probes then time one request each, not a TCP handshake too.
        return answer(
          res,
          200,
          this.time(url.searchParams.get('run') ?? '', Number(url.searchParams.get('count'))),
          true,
        );
      }
      if (req.method === 'POST' && url.pathname === CHECK_IN_PATH) {
        // A browser sends a cross-site POST without asking first only as a "simple" content type; requiring
        // JSON makes it ask (CORS preflight), which this server never grants, so no page can check a shard in.
        if (!isJson(req.headers['content-type'])) return answer(res, 415, { error: 'a check-in is application/json' });
        const body = await readBody(req);
        const request = parseCheckIn(body);
        return answer(res, 200, await this.checkIn(request));
      }
      answer(res, 404, { error: `no route ${req.method} ${url.pathname}` });
    } catch (error) {
      if (error instanceof BarrierRefusal) return answer(res, error.status, { error: error.message });
      answer(res, 500, { error: (error as Error).message });
    }
  }
}

function isJson(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json';
}

function answer(res: http.ServerResponse, status: number, body: unknown, keepAlive = false): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...(keepAlive ? {} : { connection: 'close' }) });
  res.end(JSON.stringify(body));
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > MAX_BODY_BYTES) req.destroy(new BarrierRefusal(400, 'check-in body too large'));
    });
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

function parseCheckIn(body: string): CheckIn {
  let value: Partial<CheckIn>;
  try {
    value = JSON.parse(body) as Partial<CheckIn>;
  } catch {
    throw new BarrierRefusal(400, 'the check-in is not JSON');
  }
  const whole = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 0;
  if (
    typeof value.runId !== 'string' ||
    !whole(value.count) ||
    !whole(value.shard) ||
    !whole(value.cell) ||
    !whole(value.round)
  ) {
    throw new BarrierRefusal(400, 'a check-in needs runId, count, shard, cell and round');
  }
  if (value.withdraw !== undefined && typeof value.withdraw !== 'string')
    throw new BarrierRefusal(400, 'withdraw must be a reason (text)');
  return value as CheckIn;
}
