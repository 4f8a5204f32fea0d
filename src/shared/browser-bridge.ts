/**
 * What a browser page and its client process say to each other over the page's
 * control WebSocket (loopback), as JSON. The page runs the scenario's client
 * half and times everything itself; the client process keeps the books (the
 * engine's histograms, counters, connection ledger), so what the page sends is
 * values already measured, batched, never a timing.
 *
 * Loaded by both sides: types and constants only, nothing of Node or the DOM.
 */
import type { ParamValues } from './types/declaration-types.js';
import type { ServerRestartTimes } from './types/scenario-types.js';

/**
 * Chromium refuses a page's 256th WebSocket outright and, past about 255 in one browser, leaves new
 * ones pending for ever (docs/browser.md): a page opens at most this many, the control socket aside.
 */
export const PAGE_CONNECTION_LIMIT = 250;

/** How the page opens connections: the browser's WebSocket, or socket.io's own browser client. */
export type PageConnector = 'websocket' | 'socket.io';

/** What the page needs to run the client half: sent once, after the clock is set. */
export interface PageStart {
  t: 'start';
  /** Path (on the page's own server) of the scenario module, and the scenario's name in it. */
  scenarioPath: string;
  scenarioName: string;
  params: ParamValues;
  /** The server's URL, as every connection of the cell opens it. */
  url: string;
  httpUrl: string;
  connector: PageConnector;
  /** This page's place among all pages of the cell: each page is one share, as a client process is elsewhere. */
  processIndex: number;
  processCount: number;
  /** CLOCK_MONOTONIC minus the page's performance.now(), in µs: ctx.nowUs() on the page reads the host's clock. */
  offsetUs: number;
}

/** Values recorded on the page since the last batch, by histogram or counter name. */
export interface RecordBatch {
  t: 'records';
  /** Latency samples, µs. */
  us?: Record<string, number[]>;
  /** Latency samples on a fixed schedule: [valueUs, expectedIntervalUs] pairs, flattened. */
  usInterval?: Record<string, number[]>;
  bytes?: Record<string, number[]>;
  /** Counter increments. */
  add?: Record<string, number>;
}

export type FromPage =
  | { t: 'hello'; page: number; userAgent: string; timerResolutionUs: number; crossOriginIsolated: boolean }
  /** Answer to a clock probe: the page's performance.now() in µs when it read the probe. */
  | { t: 'clock'; id: number; pageUs: number }
  | RecordBatch
  | { t: 'note'; text: string }
  /** The scenario asked for a connection; the page opens it at once and says how it went. */
  | { t: 'connect'; id: number; timeoutMs?: number }
  | { t: 'opened'; id: number; extensions: string }
  | { t: 'open-failed'; id: number; reason: string }
  /** An open connection closed without the scenario asking. */
  | { t: 'lost'; id: number; reason: string }
  /** The scenario closed a connection. */
  | { t: 'closed'; id: number }
  | { t: 'ready' }
  | { t: 'done' }
  | { t: 'restart?' }
  /** The client half returned (failed: threw, with its reason), with how late the page's 50 ms timer fired in the window (ms). */
  | { t: 'finished'; timerLatenessMs: { mean: number; max: number } | null }
  | { t: 'failed'; reason: string };

export type ToPage =
  | { t: 'probe'; id: number }
  | PageStart
  /** The engine counted the connection (`connected`) or refused it (deadline, ...): the scenario's connect() settles. */
  | { t: 'connected'; id: number }
  | { t: 'connect-failed'; id: number; reason: string }
  /** Close a connection the engine gave up on (it opened after its deadline). */
  | { t: 'close'; id: number }
  | { t: 'go' }
  | { t: 'stop' }
  | { t: 'restart'; times: ServerRestartTimes | null };

/** The page sends what it recorded this often (and before ready, done and the end): progress ticks see it within this. */
export const RECORD_FLUSH_MS = 50;

/** Path of the control WebSocket on the page's server. */
export const CONTROL_PATH = '/control';
