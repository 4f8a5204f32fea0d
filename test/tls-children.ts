/**
 * Shared by the TLS tests: one server stack and one client stack in their real
 * child processes (Node, Bun or Deno), started by the same entry files and IPC
 * messages a cell uses, with the TLS fields of those messages set by hand (the
 * run options that set them come with the engine's TLS axis).
 */
import { fileURLToPath } from 'node:url';
import type { ClientTls, ServerTls, TlsSession } from '../src/shared/types/adapter-types.js';
import { ManagedChild } from '../src/parent/child-processes.js';
import { loadClientAdapter, loadServerAdapter } from '../src/child/stacks.js';

const SERVER_ENTRY = fileURLToPath(new URL('../src/child/server-process.js', import.meta.url));
const CLIENT_ENTRY = fileURLToPath(new URL('../src/child/client-process.js', import.meta.url));
export const TLS_SCENARIO = { url: new URL('./fixtures/tls-exchange.js', import.meta.url).href, name: 'tls-exchange' };
const START_TIMEOUT_MS = 20_000;
const EXCHANGE_TIMEOUT_MS = 20_000;

export interface ServerChild {
  url: string;
  httpUrl: string;
  stop(): Promise<void>;
}

/** Starts `stack`'s server in its runtime; `tls` absent serves plain ws:// and http://. */
export async function startServerChild(stack: string, tls?: ServerTls): Promise<ServerChild> {
  const adapter = await loadServerAdapter(stack);
  const child = new ManagedChild(`server ${stack}`, 'server', SERVER_ENTRY, adapter.runtime);
  try {
    child.send({
      type: 'start',
      adapter: stack,
      scenario: TLS_SCENARIO,
      params: {},
      host: '127.0.0.1',
      processIndex: 0,
      processCount: 1,
      ...(tls ? { tls } : {}),
    });
    const ready = await child.waitFor('ready', START_TIMEOUT_MS, 'ready signal');
    return { url: ready.url!, httpUrl: ready.httpUrl!, stop: () => child.stop() };
  } catch (error) {
    await child.stop();
    throw error;
  }
}

/** How one client process fared: its counters and the TLS session it noted, or why it failed. */
export type ExchangeOutcome =
  | { ok: true; counters: Record<string, number>; session: TlsSession | null }
  | { ok: false; reason: string };

/**
 * Runs the exchange from `stack`'s client in its runtime against `server`; `first: 'http'` asks the HTTP
 * route before connecting; `inspectSocket` connects as churn does.
 */
export async function exchange(
  stack: string,
  server: ServerChild,
  tls?: ClientTls,
  first: 'websocket' | 'http' = 'websocket',
  inspectSocket = false,
): Promise<ExchangeOutcome> {
  const adapter = await loadClientAdapter(stack);
  const child = new ManagedChild(`client ${stack}`, 'client', CLIENT_ENTRY, adapter.runtime);
  try {
    child.send({
      type: 'start',
      adapter: stack,
      scenario: TLS_SCENARIO,
      params: { first, inspectSocket },
      url: server.url,
      httpUrl: server.httpUrl,
      processIndex: 0,
      processCount: 1,
      progressIntervalMs: 1000,
      ...(tls ? { tls } : {}),
    });
    await child.waitFor('ready', START_TIMEOUT_MS, 'ready() call (connection open)');
    child.send({ type: 'go' });
    const { report } = await child.waitFor('report', EXCHANGE_TIMEOUT_MS, 'report');
    const noted = report.notes.find((note) => note.startsWith('tlsSession '));
    return {
      ok: true,
      counters: report.counters,
      session: noted ? (JSON.parse(noted.slice('tlsSession '.length)) as TlsSession) : null,
    };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  } finally {
    await child.stop();
  }
}
