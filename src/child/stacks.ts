/**
 * The stack registry: one line per adapter. Imports are lazy so that the
 * orchestrator and `wsbench list` load a WebSocket library only when asked,
 * and a stack that fails to load cannot break the others.
 */
import { UsageError } from '../shared/types/errors.js';
import type { ClientAdapter, ServerAdapter } from '../shared/types/adapter-types.js';
import type { Runtime } from '../shared/types/result-types.js';
import { isHostedClient } from '../shared/types/hosted-client-types.js';

const SERVER_STACKS = {
  ws: async () => (await import('./servers/ws.js')).wsServer,
  uws: async () => (await import('./servers/uws.js')).uwsServer,
  socketio: async () => (await import('./servers/socketio.js')).socketioServer,
  bun: async () => (await import('./servers/bun.js')).bunServer,
  deno: async () => (await import('./servers/deno.js')).denoServer,
} satisfies Record<string, () => Promise<ServerAdapter>>;

const CLIENT_STACKS = {
  ws: async () => (await import('./clients/ws.js')).wsClient,
  undici: async () => (await import('./clients/undici.js')).undiciClient,
  socketio: async () => (await import('./clients/socketio.js')).socketioClient,
  bun: async () => (await import('./clients/bun.js')).bunClient,
  deno: async () => (await import('./clients/deno.js')).denoClient,
  browser: async () => (await import('./clients/browser.js')).browserClient,
  'browser-socketio': async () => (await import('./clients/browser-socketio.js')).browserSocketioClient,
} satisfies Record<string, () => Promise<ClientAdapter>>;

/** The name of a built-in server stack: `'ws' | 'uws' | ...`, from the registry above. */
export type ServerStackName = keyof typeof SERVER_STACKS;
/** The name of a built-in client stack: `'ws' | 'undici' | ...`, from the registry above. */
export type ClientStackName = keyof typeof CLIENT_STACKS;

/**
 * A stack name as code gives it: a literal must be one of `Known` (a misspelt `'wss'` is a compile
 * error naming the known ones), while a plain `string` (a name read from input, as the CLI's) passes
 * and is checked when the run is planned. `T` is the name as the caller wrote it, inferred.
 */
export type StackNameInput<T extends string, Known extends string> = string extends T
  ? T
  : [T] extends [Known]
    ? T
    : Known;

// Looked up by names read from input, hence indexed by any string.
/** The server stacks wsbench runs, by name, each loading its adapter when asked. */
export const serverStacks: Record<string, () => Promise<ServerAdapter>> = SERVER_STACKS;
/** The client stacks wsbench runs, by name, each loading its adapter when asked. */
export const clientStacks: Record<string, () => Promise<ClientAdapter>> = CLIENT_STACKS;

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
