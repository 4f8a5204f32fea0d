/**
 * The stack registry: one line per adapter. Imports are lazy so that the
 * orchestrator and `wsbench list` load a WebSocket library only when asked,
 * and a stack that fails to load cannot break the others.
 */
import { UsageError } from './errors.js';
import type { ClientAdapter, ServerAdapter } from './adapter-types.js';
import type { Runtime } from './result-types.js';
import { isHostedClient } from './hosted-client-types.js';

export const serverStacks: Record<string, () => Promise<ServerAdapter>> = {
  ws: async () => (await import('./servers/ws.js')).wsServer,
  uws: async () => (await import('./servers/uws.js')).uwsServer,
  socketio: async () => (await import('./servers/socketio.js')).socketioServer,
  bun: async () => (await import('./servers/bun.js')).bunServer,
  deno: async () => (await import('./servers/deno.js')).denoServer,
};

export const clientStacks: Record<string, () => Promise<ClientAdapter>> = {
  ws: async () => (await import('./clients/ws.js')).wsClient,
  undici: async () => (await import('./clients/undici.js')).undiciClient,
  socketio: async () => (await import('./clients/socketio.js')).socketioClient,
  bun: async () => (await import('./clients/bun.js')).bunClient,
  deno: async () => (await import('./clients/deno.js')).denoClient,
  browser: async () => (await import('./clients/browser.js')).browserClient,
  'browser-socketio': async () => (await import('./clients/browser-socketio.js')).browserSocketioClient,
};

/**
 * Client stacks a run leaves out unless they are named: each starts a real browser per client process
 * (a second or more and some hundreds of MB per cell), which a bare `wsbench run` should not.
 */
export const CLIENTS_ONLY_WHEN_NAMED: readonly string[] = ['browser', 'browser-socketio'];

/** Adapters loaded so far, by "role/name": the engine reads their runtime without awaiting. */
const loaded = new Map<string, ServerAdapter | ClientAdapter>();

export async function loadServerAdapter(name: string): Promise<ServerAdapter> {
  const load = serverStacks[name];
  if (!load) throw new UsageError(`unknown server stack "${name}" (known: ${Object.keys(serverStacks).join(', ')})`);
  const adapter = await load();
  loaded.set(`server/${name}`, adapter);
  return adapter;
}

export async function loadClientAdapter(name: string): Promise<ClientAdapter> {
  const load = clientStacks[name];
  if (!load) throw new UsageError(`unknown client stack "${name}" (known: ${Object.keys(clientStacks).join(', ')})`);
  const adapter = await load();
  loaded.set(`client/${name}`, adapter);
  return adapter;
}

/**
 * Whether a client stack's processes are measured with their whole process tree: a stack whose client
 * half runs in processes its client process starts (a browser's) carries its load there.
 */
export function clientSampledAsTree(name: string): boolean {
  const adapter = loaded.get(`client/${name}`);
  return adapter !== undefined && isHostedClient(adapter as ClientAdapter);
}

/**
 * The runtime a stack's child runs under. run() loads every adapter (probing
 * them) before the first cell, so this answers synchronously where children start.
 */
export function stackRuntime(role: 'server' | 'client', name: string): Runtime {
  const adapter = loaded.get(`${role}/${name}`);
  if (!adapter) throw new Error(`${role} stack ${name} was not loaded before its process started`);
  return adapter.runtime;
}
