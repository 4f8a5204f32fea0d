/**
 * The stack registry: one line per adapter. Imports are lazy so that the
 * orchestrator and `wsbench list` load a WebSocket library only when asked,
 * and a stack that fails to load cannot break the others.
 */
import { UsageError } from './errors.js';
import type { ClientAdapter, ServerAdapter } from './adapter-types.js';

export const serverStacks: Record<string, () => Promise<ServerAdapter>> = {
  ws: async () => (await import('./servers/ws.js')).wsServer,
  uws: async () => (await import('./servers/uws.js')).uwsServer,
  socketio: async () => (await import('./servers/socketio.js')).socketioServer,
};

export const clientStacks: Record<string, () => Promise<ClientAdapter>> = {
  ws: async () => (await import('./clients/ws.js')).wsClient,
  undici: async () => (await import('./clients/undici.js')).undiciClient,
  socketio: async () => (await import('./clients/socketio.js')).socketioClient,
};

export async function loadServerAdapter(name: string): Promise<ServerAdapter> {
  const load = serverStacks[name];
  if (!load) throw new UsageError(`unknown server stack "${name}" (known: ${Object.keys(serverStacks).join(', ')})`);
  return load();
}

export async function loadClientAdapter(name: string): Promise<ClientAdapter> {
  const load = clientStacks[name];
  if (!load) throw new UsageError(`unknown client stack "${name}" (known: ${Object.keys(clientStacks).join(', ')})`);
  return load();
}
