/**
 * Messages between the orchestrator and its children. Nothing here travels per
 * WebSocket message: children report counters about once a second and their
 * encoded histograms once, at the end of the window.
 */
import type { ParamValues } from '../shared/types/declaration-types.js';
import type { ProcessReport } from '../shared/types/result-types.js';
import type { ClientTls, ServerTls } from '../shared/types/adapter-types.js';
import type { JsonValue, ServerRestartTimes } from '../shared/types/scenario-types.js';
import { watchParent } from './parent-watchdog.js';
import type { ProgressTick } from '../shared/measure/time-series.js';

/** Which scenario a child runs: the module it imports and the scenario's name in it. */
interface ScenarioAddress {
  url: string;
  name: string;
}

export interface ServerStartMessage {
  type: 'start';
  adapter: string;
  scenario: ScenarioAddress;
  params: ParamValues;
  host: string;
  /** This process's place among the cell's server processes (the serverProcesses parameter). */
  processIndex: number;
  processCount: number;
  /** Join the first process on its port (every process but the first of several). */
  port?: number;
  /** Serve TLS with this certificate and key. */
  tls?: ServerTls;
}

export interface ClientStartMessage {
  type: 'start';
  adapter: string;
  scenario: ScenarioAddress;
  params: ParamValues;
  url: string;
  httpUrl: string;
  processIndex: number;
  processCount: number;
  /** How often to send progress while the window is open (sized to the window: see progressIntervalMs). */
  progressIntervalMs: number;
  /** Where each stage of the cell ends, in ms from the window's opening; absent without stages. */
  stageEndsMs?: number[];
  /** What the WebSocket and HTTP clients trust, for a wss:// and https:// server. */
  tls?: ClientTls;
}

/** Opens (go) or closes (stop) the measurement window. */
type ControlMessage = { type: 'go' } | { type: 'stop' };

/** ctx.tellSiblings() data, from one server process to the orchestrator and on to the others. */
export interface SiblingMessage {
  type: 'sibling';
  data: JsonValue;
}

/** To the clients of a scenario that asked for a server restart: it happened (times), or the server is not coming back (null). */
interface ServerRestartMessage {
  type: 'server-restart';
  times: ServerRestartTimes | null;
}

/** wsbench has just killed the server (CLOCK_MONOTONIC µs): what drops connections from now on is the kill. */
interface ServerKilledMessage {
  type: 'server-killed';
  stoppedAtUs: number;
}

export type ToChild =
  | ServerStartMessage
  | ClientStartMessage
  | ControlMessage
  | SiblingMessage
  | ServerRestartMessage
  | ServerKilledMessage;

/**
 * A client's ticks since its last progress message: about one message a second
 * however short the interval, and the last ones right before its report. Every
 * message wakes the orchestrator, which shares the machine's cores with the
 * clients; ten a second cost an echo client at full load 2-3 % of its CPU.
 */
export interface ProgressMessage {
  type: 'progress';
  ticks: ProgressTick[];
}

export type FromChild =
  | { type: 'ready'; url?: string; httpUrl?: string }
  | ProgressMessage
  /** A client's window closed (its work is done, or it was told to stop); what follows is cleanup. */
  | { type: 'window-closed' }
  /** A client's connections are all lost (allLost), or one opened again after that: sent on each change. */
  | { type: 'connections'; allLost: boolean }
  | SiblingMessage
  | { type: 'report'; report: ProcessReport; stackDrops?: number }
  | { type: 'failed'; reason: string; report?: ProcessReport };

/** Sends to the parent, ignoring a parent that is already gone. */
export function sendToParent(message: FromChild): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

/**
 * A child follows its parent: when the IPC channel closes, it leaves, and when the
 * parent is gone while its event loop is stuck, the watchdog thread kills it.
 * Ctrl+C in a terminal, SIGTERM to the process group, or SIGHUP when the
 * terminal closes, reaches the child too; the child ignores it so that the
 * parent can collect what it measured before stopping it.
 */
export function exitWithParent(partialReport: () => ProcessReport | undefined = () => undefined): void {
  // A crash reports its own message: the stderr tail may show a line of source first.
  const crash = (error: unknown): void => {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
    void sendToParent({ type: 'failed', reason: `crashed: ${reason}`, report: partialReport() }).finally(() =>
      process.exit(1),
    );
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  process.on('disconnect', () => process.exit(0));
  // Signals sent to the whole group (Ctrl+C, `kill -TERM -pgid`) are wsbench's to handle.
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => undefined);
  process.on('SIGHUP', () => undefined);
  watchParent();
}
