/**
 * The per-connection form: a scenario gives `connection(conn, ctx)` and wsbench
 * writes the client half every scenario used to repeat: this process's share of
 * the connections, each from its source address, opened at the plan's rate (or
 * 100 handshakes at a time) with a deadline each, failures counted by reason;
 * the ready barrier; `connection()` on every open connection when the window
 * opens; the window (or, without one, until every connection is done); the
 * drain of replies in flight; closing. Lost connections are the engine's own
 * count (connectionsLost); a lost connection's requests are missing, and its
 * `connection()` ends quietly at its next send.
 */
import { setMaxListeners } from 'node:events';
import type { ClientConnection, MessageData } from '../types/adapter-types.js';
import type {
  IterateOptions,
  IterationStep,
  JsonReply,
  LoadPlan,
  RequestOptions,
  RequestTracker,
  ScenarioConnection,
} from '../types/connection-types.js';
import type { ParamValues } from '../types/declaration-types.js';
import type { RecorderDeclarations } from '../types/recorder-types.js';
import type {
  ClientScenarioContext,
  ConnectionContext,
  ConnectPlan,
  MetricDefinition,
} from '../types/scenario-types.js';
import { connectFailureCounter, connectFailureKey } from './connect-failure-counts.js';
import { CONNECT_FAILURES, openPaced } from './paced-connections.js';
import { bindRecorders } from './recorder-binding.js';
import { Requests } from './request-tracker.js';
import { sourceAddressCount, sourceAddressFor } from './source-addresses.js';
import { aborted, waitUntil } from './waiting.js';
import { ConnectionGone, endsQuietly } from './work-ended.js';
import { loadPlanOf } from './arrivals/open-model.js';
import { Pacer } from './arrivals/pacer.js';
import { ActiveConnections, closedLoopConnections } from './arrivals/active-connections.js';
import { runIterations, type IterationLink } from './arrivals/iterations.js';

/** Handshakes in flight at once without a connect rate: more at a time only measures the kernel's SYN queue. */
const CONNECT_AT_ONCE = 100;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const DEFAULT_DRAIN_MS = 1000;
/** Messages kept for a handler not set yet (a server's greeting); beyond, they are dropped. */
const EARLY_MESSAGES = 1000;
/** The ready timeout's allowance beyond the connect phase: process start, scheduling. */
const READY_MARGIN_MS = 15_000;

interface PerConnectionParts {
  connection(
    conn: ScenarioConnection,
    ctx: ConnectionContext<ParamValues, RecorderDeclarations>,
    shared: unknown,
  ): Promise<void> | void;
  setup?(ctx: ConnectionContext<ParamValues, RecorderDeclarations>): unknown;
  plan: ConnectPlan;
  recorders: RecorderDeclarations;
  /** Every metric of the scenario: connect-failure counters it reports are made at once. */
  scenarioMetrics: Record<string, MetricDefinition>;
  windowMs?(params: ParamValues): number | undefined;
  subprotocols?(params: ParamValues): string[];
}

/** The connections of the cell as the plan counts them: those active as the window opens. */
const startCountOf = (plan: ConnectPlan, params: ParamValues): number =>
  plan.count ? plan.count(params) : Number(params.connections);

/** The connections opened: in a closed loop with stages, as many as the highest stage asks, ready before the window. */
function countOf(plan: ConnectPlan, params: ParamValues): number {
  const start = startCountOf(plan, params);
  const load = loadPlanOf(params, start);
  return load.model === 'closed' ? closedLoopConnections(start, load.stages) : start;
}

/** How long the connect phase may take: as the plan opens them, the last with its whole deadline, and a margin. */
export function perConnectionReadyMs(plan: ConnectPlan): (params: ParamValues) => number {
  return (params) => {
    const count = countOf(plan, params);
    const rate = plan.ratePerSec?.(params);
    // Unpaced, 100 at a time: loopback handshakes take well under a millisecond each.
    const openingMs = rate !== undefined && rate > 0 ? (count / rate) * 1000 : count;
    return READY_MARGIN_MS + openingMs + (plan.timeoutMs?.(params) ?? DEFAULT_CONNECT_TIMEOUT_MS);
  };
}

export function perConnectionClient(parts: PerConnectionParts): (ctx: ClientScenarioContext) => Promise<void> {
  return async (ctx) => {
    const { plan } = parts;
    const p = ctx.params;
    const total = countOf(plan, p);
    const count = ctx.share(total);
    const first = ctx.firstOfShare(total);
    const addresses = sourceAddressCount(total, plan.sourceAddresses?.(p) ?? 0);
    const timeoutMs = plan.timeoutMs?.(p) ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const rate = plan.ratePerSec?.(p);
    const protocols = parts.subprotocols?.(p) ?? [];
    const windowless = parts.windowMs !== undefined && parts.windowMs(p) === undefined;
    // The connections' own copies of the window and the drain: every connection may listen, past Node's listener warning.
    const window = new AbortController();
    const drained = new AbortController();
    unlimitedListeners(window.signal, drained.signal);
    if (ctx.signal.aborted) window.abort();
    else ctx.signal.addEventListener('abort', () => window.abort(), { once: true });
    // The connections' load: the closed loop unless the open model's parameters ask for a rate (arrivals/open-model.ts).
    const load = loadPlanOf(p, total);
    const clock = new WindowClock(ctx, window.signal, load, startCountOf(plan, p));
    const cctx = connectionContext(ctx, parts.recorders, window.signal, drained.signal, load);
    const shared = parts.setup?.(cctx);
    const declaresFailures = Object.values(parts.scenarioMetrics).some(
      ({ source }) =>
        'counter' in source &&
        source.side !== 'server' &&
        ['connectFailed', ...CONNECT_FAILURES.map(connectFailureKey)].includes(source.counter),
    );

    const open = await openPaced<OpenConnection>({
      count,
      ratePerSec: rate !== undefined && rate > 0 ? rate / ctx.processCount : Number.POSITIVE_INFINITY,
      atOnce: CONNECT_AT_ONCE,
      timeoutMs,
      signal: ctx.signal,
      open: async (i) => {
        const conn = new OpenConnection(first + i, ctx, window.signal, clock.linkFor(first + i, total));
        const localAddress = sourceAddressFor(first + i, addresses);
        conn.socket = await ctx.connect({
          onMessage: conn.dispatch,
          onUnexpectedClose: conn.lost,
          timeoutMs,
          ...(localAddress ? { localAddress } : {}),
          ...(protocols.length > 0 ? { protocols } : {}),
          ...(plan.textAsBytes ? { textAsBytes: true } : {}),
        });
        return conn;
      },
      discard: (late) => void late.close(),
      onFailure: connectFailureCounter(ctx, declaresFailures),
    });
    await ctx.ready();
    clock.opened();

    let failure: unknown = null;
    const work = Promise.all(
      open.map(async (conn) => {
        try {
          await parts.connection(conn, cctx, shared);
        } catch (error) {
          if (endsQuietly(error)) return;
          // The scenario's own fault: the cell fails with it, after the rest is closed in order.
          if (failure === null) failure = error;
          ctx.done();
        }
      }),
    );
    // With a window, it runs its length; without one, until every connection's work is done.
    if (windowless) {
      await Promise.race([work, aborted(ctx.signal)]);
      ctx.done();
    } else await aborted(ctx.signal);

    const drainTimer = setTimeout(() => drained.abort(), plan.drainMs?.(p) ?? DEFAULT_DRAIN_MS);
    await Promise.race([work, aborted(drained.signal)]);
    if (!drained.signal.aborted)
      await waitUntil(() => drained.signal.aborted || open.every((c) => c.inFlight() === 0), Number.POSITIVE_INFINITY);
    clearTimeout(drainTimer);
    drained.abort();
    for (const conn of open) conn.endRequests('the drain after the window ended');
    await Promise.all(open.map((conn) => conn.close()));
    if (failure !== null) throw failure;
  };
}

/** The ctx `connection()` and `setup()` get: the client half's, less what wsbench does itself. */
function connectionContext(
  ctx: ClientScenarioContext,
  recorders: RecorderDeclarations,
  signal: AbortSignal,
  drained: AbortSignal,
  load: LoadPlan,
): ConnectionContext<ParamValues, RecorderDeclarations> {
  return {
    params: ctx.params,
    load,
    processIndex: ctx.processIndex,
    processCount: ctx.processCount,
    httpUrl: ctx.httpUrl,
    http: ctx.http,
    newHttpClient: () => ctx.newHttpClient(),
    signal,
    drained,
    note: (text) => ctx.note(text),
    done: () => ctx.done(),
    serverRestart: () => ctx.serverRestart(),
    histogram: (name) => ctx.histogram(name),
    sizeHistogram: (name) => ctx.sizeHistogram(name),
    counter: (name) => ctx.counter(name),
    nowUs: ctx.nowUs.bind(ctx),
    recorders: bindRecorders(ctx, recorders, 'client') as ConnectionContext<
      ParamValues,
      RecorderDeclarations
    >['recorders'],
  };
}

/** Node warns past ten listeners on one signal; a page has no such limit (nor node:events). */
function unlimitedListeners(...signals: AbortSignal[]): void {
  try {
    setMaxListeners(0, ...signals);
  } catch {
    // A browser page: its stand-in for node:events throws, and its signals need nothing.
  }
}

/**
 * The window as the open model and the closed loop's stages see it: when it opened in this process, the
 * process's pacer, and which connections take part; made once, when the window opens.
 */
class WindowClock {
  private originUs: number | null = null;
  private pacer: Pacer | null = null;
  private gate: ActiveConnections | null = null;

  constructor(
    private readonly ctx: ClientScenarioContext,
    private readonly signal: AbortSignal,
    private readonly load: LoadPlan,
    /** Closed loop: the connections active as the window opens (the rest wait for the stages). */
    private readonly startConnections: number,
  ) {}

  opened(): void {
    this.originUs = this.ctx.nowUs();
    if (this.load.model === 'closed' && this.load.stages.length > 0)
      this.gate = new ActiveConnections(this.startConnections, this.load.stages, this.originUs, () => this.ctx.nowUs());
  }

  linkFor(index: number, total: number): IterationLink {
    const ctx = this.ctx;
    return {
      index,
      total,
      plan: this.load,
      signal: this.signal,
      nowUs: () => ctx.nowUs(),
      pacer: () => {
        if (this.originUs === null) throw new Error('conn.iterate(): called before the window opened');
        return (this.pacer ??= new Pacer(
          {
            nowUs: () => ctx.nowUs(),
            histogram: (name) => ctx.histogram(name),
            counter: (name) => ctx.counter(name),
            signal: this.signal,
          },
          this.originUs,
        ));
      },
      active: () => this.gate,
    };
  }
}

class OpenConnection implements ScenarioConnection {
  socket!: ClientConnection;
  private handler: ((data: MessageData) => void) | null = null;
  private lostHandler: ((reason: string) => void) | null = null;
  private lostReason: string | null = null;
  private tracker: Requests<unknown> | null = null;
  private early: MessageData[] = [];
  private gone: string | null = null;
  private closing: Promise<void> | null = null;

  constructor(
    readonly index: number,
    private readonly ctx: ClientScenarioContext,
    private readonly window: AbortSignal,
    private readonly iterations: IterationLink,
  ) {}

  /** Every message of the connection: a request's reply, else the scenario's handler's. */
  readonly dispatch = (data: MessageData): void => {
    const tracker = this.tracker;
    const kind = tracker === null ? 'other' : tracker.sort(data);
    if (kind === 'answered') return;
    const handler = this.handler;
    if (handler !== null) return handler(data);
    // A reply to nothing in flight, and nobody to hand it to: a wrong one.
    if (kind === 'stray') return tracker!.unmatched();
    // Binary data is a view valid only during the call: a kept one is a copy.
    if (tracker === null && this.early.length < EARLY_MESSAGES)
      this.early.push(typeof data === 'string' ? data : data.slice());
  };

  /** The engine counted the loss; the connection's requests still in flight are missing. */
  readonly lost = (reason: string): void => {
    this.gone ??= `the connection was lost: ${reason}`;
    this.lostReason = reason;
    this.tracker?.end(this.gone);
    this.lostHandler?.(reason);
  };

  send(data: MessageData): void {
    if (this.gone !== null) throw new ConnectionGone(this.gone);
    this.socket.send(data);
  }

  onMessage(handler: (data: MessageData) => void): void {
    this.handler = handler;
    const early = this.early.splice(0);
    // After the caller's synchronous setup, so that what the handler reads is there.
    if (early.length > 0)
      queueMicrotask(() =>
        early.forEach((data) => {
          this.handler?.(data);
        }),
      );
  }

  onUnexpectedClose(handler: (reason: string) => void): void {
    this.lostHandler = handler;
    // Lost before the handler was set (before the window, say): it hears of it now.
    const reason = this.lostReason;
    if (reason !== null) queueMicrotask(() => handler(reason));
  }

  requests<Reply = JsonReply>(options?: RequestOptions<Reply>): RequestTracker<Reply> {
    if (this.tracker !== null)
      throw new Error('conn.requests(): one request tracker per connection (keep the one it gave)');
    const tracker = new Requests<Reply>(
      { send: (data) => this.send(data), nowUs: () => this.ctx.nowUs(), signal: this.window },
      options,
    );
    this.tracker = tracker as Requests<unknown>;
    if (this.gone !== null) tracker.end(this.gone);
    return tracker;
  }

  iterate(step: IterationStep, options?: IterateOptions): Promise<void> {
    return runIterations(this.iterations, step, options);
  }

  inFlight(): number {
    return this.tracker?.inFlight() ?? 0;
  }

  endRequests(why: string): void {
    this.tracker?.end(why);
  }

  bufferedAmountBytes(): number {
    return this.socket.bufferedAmountBytes();
  }

  close(): Promise<void> {
    this.gone ??= 'the connection was closed';
    this.tracker?.end(this.gone);
    return (this.closing ??= this.socket.close());
  }
}
