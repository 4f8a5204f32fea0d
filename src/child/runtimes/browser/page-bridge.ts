/**
 * The client process's side of one page: what the page recorded goes into the
 * process's own recorders and counters, each connection the page opens is
 * counted through the process's ctx.connect() (its deadline, the ledger, the
 * handshake log), and the page hears the engine's verdicts, the window's
 * opening and closing, and clock probes.
 */
import type { WebSocket } from 'ws';
import type { ClientConnection, ClientConnectOptions } from '../../../shared/types/adapter-types.js';
import type { ClientScenarioContext, Counter, Recorder, SizeRecorder } from '../../../shared/types/scenario-types.js';
import type { FromPage, PageStart, RecordBatch, ToPage } from '../../../shared/browser-bridge.js';
import { offsetOf, type ClockOffset, type ClockProbe } from './clock-offset.js';
import { TypicalValues } from './typical-values.js';

/**
 * How the browser adapter's connect() finds the page connection it stands for: the bridge passes
 * this in the options of ctx.connect(), which hands them on to the adapter.
 */
export const PAGE_OPENING = Symbol('wsbench.pageOpening');
type PageOpening = (onUnexpectedClose: (reason: string) => void) => Promise<PageConnection>;
/** A connection open on a page, as its client process holds it: the browser adapter makes a ClientConnection of it. */
interface PageConnection {
  /** The Sec-WebSocket-Extensions the page's handshake settled on. */
  extensions: string;
  close(): Promise<void>;
}
export type WithPageOpening = { [PAGE_OPENING]?: PageOpening };

const CLOCK_PROBES = 20;
const PROBE_TIMEOUT_MS = 5000;

/** One connection the page opened, as the engine counts it. */
interface Counted {
  opened(extensions: string): void;
  failed(reason: string): void;
  /** Lost before the engine counted it: told once it is counted. */
  lostEarly: string | null;
  onUnexpectedClose: ((reason: string) => void) | null;
  connection: ClientConnection | null;
  closedByPage: boolean;
}

interface PageEvents {
  ready(): void;
  done(): void;
  finished(timerLatenessMs: { mean: number; max: number } | null): void;
  failed(reason: string): void;
}

export class PageBridge {
  hello: Extract<FromPage, { t: 'hello' }> | null = null;
  private readonly recorders = new Map<string, Recorder>();
  private readonly sizes = new Map<string, SizeRecorder>();
  private readonly counters = new Map<string, Counter>();
  private readonly connections = new Map<number, Counted>();
  /** What the page's latencies typically were, to set the clock's uncertainty beside (made at hello, with the clock's step). */
  typical = new TypicalValues(1);
  private readonly probes = new Map<number, (pageUs: number) => void>();
  private nextProbe = 0;
  private events: PageEvents | null = null;
  private helloSeen: () => void = () => undefined;
  /** Resolves when the page said hello. */
  readonly greeted = new Promise<void>((resolve) => (this.helloSeen = resolve));

  constructor(
    readonly index: number,
    private readonly socket: WebSocket,
    private readonly ctx: ClientScenarioContext,
    onGone: (reason: string) => void,
  ) {
    socket.on('message', (data) => this.receive(JSON.parse(String(data)) as FromPage));
    socket.on('close', () =>
      onGone(`browser page ${index + 1} closed its control connection (the page crashed or was closed)`),
    );
    socket.on('error', () => undefined);
  }

  send(message: ToPage): void {
    if (this.socket.readyState === 1) this.socket.send(JSON.stringify(message));
  }

  /** Starts the scenario on the page; `events` hears how it goes. */
  start(message: PageStart, events: PageEvents): void {
    this.events = events;
    this.send(message);
  }

  /** The page clock's offset to CLOCK_MONOTONIC, from the quickest of a few probes. */
  async measureClock(): Promise<ClockOffset> {
    const probes: ClockProbe[] = [];
    for (let i = 0; i < CLOCK_PROBES; i++) {
      const id = ++this.nextProbe;
      const sentUs = this.ctx.nowUs();
      const pageUs = await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(
                `browser page ${this.index + 1} did not answer a clock probe within ${PROBE_TIMEOUT_MS / 1000} s`,
              ),
            ),
          PROBE_TIMEOUT_MS,
        );
        this.probes.set(id, (value) => {
          clearTimeout(timer);
          resolve(value);
        });
        this.send({ t: 'probe', id });
      });
      probes.push({ sentUs, pageUs, backUs: this.ctx.nowUs() });
    }
    return offsetOf(probes, this.hello?.timerResolutionUs ?? 0)!;
  }

  private receive(message: FromPage): void {
    switch (message.t) {
      case 'clock':
        this.probes.get(message.id)?.(message.pageUs);
        this.probes.delete(message.id);
        return;
      case 'hello':
        this.hello = message;
        this.typical = new TypicalValues(message.timerResolutionUs);
        this.helloSeen();
        return;
      case 'records':
        return this.record(message);
      case 'note':
        return this.ctx.note(message.text);
      case 'connect':
        return this.count(message.id, message.timeoutMs);
      case 'opened':
        return this.connections.get(message.id)?.opened(message.extensions);
      case 'open-failed':
        return this.connections.get(message.id)?.failed(message.reason);
      case 'lost':
        return this.lost(message.id, message.reason);
      case 'closed': {
        const counted = this.connections.get(message.id);
        this.connections.delete(message.id);
        if (counted) counted.closedByPage = true;
        void counted?.connection?.close();
        return;
      }
      case 'restart?':
        void this.ctx.serverRestart().then((times) => this.send({ t: 'restart', times }));
        return;
      case 'ready':
        return this.events?.ready();
      case 'done':
        return this.events?.done();
      case 'finished':
        return this.events?.finished(message.timerLatenessMs);
      case 'failed':
        return this.events?.failed(message.reason);
      default:
        return undefined;
    }
  }

  private record(batch: RecordBatch): void {
    for (const [name, values] of Object.entries(batch.us ?? {})) {
      const recorder = this.recorder(name);
      for (const value of values) {
        recorder.recordUs(value);
        this.typical.add(name, value);
      }
    }
    for (const [name, pairs] of Object.entries(batch.usInterval ?? {})) {
      const recorder = this.recorder(name);
      for (let i = 0; i + 1 < pairs.length; i += 2) {
        recorder.recordUsWithInterval(pairs[i]!, pairs[i + 1]!);
        this.typical.add(name, pairs[i]!);
      }
    }
    for (const [name, values] of Object.entries(batch.bytes ?? {})) {
      let sizes = this.sizes.get(name);
      if (!sizes) this.sizes.set(name, (sizes = this.ctx.sizeHistogram(name)));
      for (const value of values) sizes.recordBytes(value);
    }
    for (const [name, amount] of Object.entries(batch.add ?? {})) {
      let counter = this.counters.get(name);
      if (!counter) this.counters.set(name, (counter = this.ctx.counter(name)));
      counter.add(amount);
    }
  }

  private recorder(name: string): Recorder {
    let recorder = this.recorders.get(name);
    if (!recorder) this.recorders.set(name, (recorder = this.ctx.histogram(name)));
    return recorder;
  }

  /** The engine counts the connection the page is opening: the page hears its verdict. */
  private count(id: number, timeoutMs: number | undefined): void {
    let settle: { resolve(extensions: string): void; reject(error: Error): void } | null = null;
    const openedOnPage = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
    const counted: Counted = {
      opened: (extensions) => settle!.resolve(extensions),
      failed: (reason) => settle!.reject(new Error(reason)),
      lostEarly: null,
      onUnexpectedClose: null,
      connection: null,
      closedByPage: false,
    };
    this.connections.set(id, counted);
    const opening: PageOpening = async (onUnexpectedClose) => {
      const extensions = await openedOnPage;
      counted.onUnexpectedClose = onUnexpectedClose;
      return this.standIn(id, extensions, counted);
    };
    const options: ClientConnectOptions & WithPageOpening = {
      onMessage: () => undefined,
      onUnexpectedClose: () => undefined,
      [PAGE_OPENING]: opening,
    };
    this.ctx.connect({ ...options, ...(timeoutMs !== undefined ? { timeoutMs } : {}) }).then(
      (connection) => {
        counted.connection = connection;
        this.send({ t: 'connected', id });
        if (counted.lostEarly !== null) this.lost(id, counted.lostEarly);
      },
      (error: Error) => {
        this.connections.delete(id);
        this.send({ t: 'connect-failed', id, reason: error.message.split('\n')[0]! });
      },
    );
  }

  private lost(id: number, reason: string): void {
    const counted = this.connections.get(id);
    if (!counted) return;
    if (counted.connection === null) {
      counted.lostEarly = reason;
      return;
    }
    this.connections.delete(id);
    counted.onUnexpectedClose?.(reason);
  }

  /** What the engine holds for a page's connection: closing it closes it on the page (unless the page did). */
  private standIn(id: number, extensions: string, counted: Counted): PageConnection {
    return {
      extensions,
      close: async () => {
        if (!counted.closedByPage) this.send({ t: 'close', id });
      },
    };
  }
}
